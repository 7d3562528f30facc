// Judging a dependent's owner references, as upstream's classifyReferences and isDangling:
// solid (the owner exists and is not waiting for its dependents), dangling (the owner is absent:
// remembered as absent, answered 404, or its name now holds another uid) or waiting (the owner is
// being deleted with the foregroundDeletion finalizer). An owner the graph has seen under the
// referenced coordinates is judged from the graph, which the watches keep current (a later
// deletion queues the dependent again); any other owner is asked of the server, so nothing is
// ever judged absent only because the graph has not seen it yet.

import type { NamingProfile } from '../../naming/index.ts';
import { isNotFound } from '../controller-support.ts';
import {
  absentKey,
  FOREGROUND_FINALIZER,
  type GraphNode,
  groupOf,
  type OwnerReference,
  referenceMatches,
} from './graph.ts';
import type { GraphBuilder } from './graph-builder.ts';
import { type GcOperations, NamespacedOwnerError, stateOf } from './operations.ts';

export interface Classified {
  solid: OwnerReference[];
  dangling: OwnerReference[];
  waiting: OwnerReference[];
}

export async function classifyReferences(
  item: GraphNode,
  refs: readonly OwnerReference[],
  graph: GraphBuilder,
  ops: GcOperations,
  profile: NamingProfile,
): Promise<Classified> {
  const out: Classified = { solid: [], dangling: [], waiting: [] };
  for (const ref of refs) {
    const verdict = await judge(item, ref, graph, ops, profile);
    out[verdict].push(ref);
  }
  return out;
}

async function judge(
  item: GraphNode,
  ref: OwnerReference,
  graph: GraphBuilder,
  ops: GcOperations,
  profile: NamingProfile,
): Promise<keyof Classified> {
  const group = groupOf(ref.apiVersion);
  if (
    graph.absent.has(absentKey(group, ref.kind, '', ref.name, ref.uid)) ||
    graph.absent.has(absentKey(group, ref.kind, item.namespace, ref.name, ref.uid))
  )
    return 'dangling';

  const known = graph.nodes.get(ref.uid);
  if (
    known?.observed === true &&
    referenceMatches(profile, ref, known) &&
    (known.namespace === '' || known.namespace === item.namespace)
  ) {
    return known.beingDeleted && known.hasForegroundFinalizer ? 'waiting' : 'solid';
  }

  const m = ops.mapperFor(ref.apiVersion, ref.kind);
  if (item.namespace === '' && m.namespaced)
    throw new NamespacedOwnerError(
      `cluster-scoped ${item} refers to a namespaced owner ${ref.apiVersion}/${ref.kind} ${ref.name}`,
    );
  const key = absentKey(group, ref.kind, m.namespaced ? item.namespace : '', ref.name, ref.uid);
  let owner: ReturnType<typeof stateOf>;
  try {
    owner = stateOf(await ops.getOwner(m, item.namespace, ref.name));
  } catch (err) {
    if (!isNotFound(err)) throw err;
    graph.absent.add(key);
    return 'dangling';
  }
  if (owner.uid !== ref.uid) {
    graph.absent.add(key);
    return 'dangling';
  }
  return owner.deleting && owner.finalizers.includes(FOREGROUND_FINALIZER) ? 'waiting' : 'solid';
}
