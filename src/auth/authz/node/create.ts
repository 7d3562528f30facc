// A Node authorizer with its graph and the feed that fills it. Without a source the graph stays
// empty: the fixed rules, Leases, Nodes and Pods by field selector still work, and nothing that
// needs a link to a bound Pod is allowed.

import { type NamingProfile, namingProfile } from '../../../naming/profile.ts';
import { NodeAuthorizer } from './authorizer.ts';
import { Graph } from './graph.ts';
import { GraphPopulator } from './graph-populator.ts';
import type { NodeGraphSource } from './types.ts';

export interface NodeAuthorizerHandle {
  authorizer: NodeAuthorizer;
  graph: Graph;
  /** Resolves once every watched kind has been listed once. */
  synced: Promise<void>;
  stop(): void;
}

export function createNodeAuthorizer(
  source?: NodeGraphSource,
  profile: NamingProfile = namingProfile('spec'),
): NodeAuthorizerHandle {
  const graph = new Graph();
  const feed = source?.start(new GraphPopulator(graph, profile));
  return {
    authorizer: new NodeAuthorizer(graph, profile),
    graph,
    synced: feed?.synced ?? Promise.resolve(),
    stop: () => feed?.stop(),
  };
}
