// The Node authorizer's feed inside the server: Pods and PersistentVolumes, followed by list and
// watch from the watch cache (served-feed.ts). A kind the server does not serve is simply empty. The authorizer
// is made on first use, so a server whose modes leave Node out watches nothing for it.

import { createNodeAuthorizer, type NodeAuthorizerHandle } from '../auth/authz/node/create.ts';
import type { NodeGraphKind, NodeGraphSource } from '../auth/authz/node/types.ts';
import type { NamingProfile } from '../naming/profile.ts';
import { followKinds } from './served-feed.ts';
import type { ServedResources } from './served-resources.ts';

const RESOURCES: readonly [NodeGraphKind, string][] = [
  ['Pod', 'pods'],
  ['PersistentVolume', 'persistentvolumes'],
];

export function servedNodeGraphSource(
  served: ServedResources,
  log: (message: string) => void = () => {},
): NodeGraphSource {
  return {
    start(handlers) {
      const resources = RESOURCES.map(
        ([kind, resource]) => [kind, resource, served.lookup('', 'v1', resource)] as const,
      );
      return followKinds('node graph feed', log, resources, handlers);
    },
  };
}

/** The server's Node authorizer, started on first use; stop() ends its feed if it was started. */
export function lazyNodeAuthorizer(
  served: ServedResources,
  profile: NamingProfile,
  log?: (message: string) => void,
): { get(): NodeAuthorizerHandle; stop(): void } {
  let handle: NodeAuthorizerHandle | undefined;
  return {
    get() {
      handle ??= createNodeAuthorizer(servedNodeGraphSource(served, log), profile);
      return handle;
    },
    stop() {
      handle?.stop();
    },
  };
}
