// One attempt on one node of the attemptToDelete queue, as upstream's attemptToDeleteItem. An
// observed node is judged from the graph's view of it, and every write carries that view's
// resourceVersion, so a stale view only costs a conflict, after which the object is read afresh
// and judged again. A virtual node (an owner only named so far) is read from the server: absent,
// it is dropped from the graph (a virtual delete) and its dependents are queued.

import type { NamingProfile } from '../../naming/index.ts';
import { isConflict, isNotFound } from '../controller-support.ts';
import { FOREGROUND_FINALIZER, type GraphNode, ORPHAN_FINALIZER } from './graph.ts';
import type { GraphBuilder } from './graph-builder.ts';
import { type GcOperations, type ObjectState, type PropagationPolicy, stateOf } from './operations.ts';
import { classifyReferences } from './references.ts';

/** Thrown to put a node back on its queue after the queue's backoff, without reporting an error. */
export class RequeueSignal extends Error {
  constructor() {
    super('requeue');
    this.name = 'RequeueSignal';
  }
}

export interface AttemptContext {
  graph: GraphBuilder;
  ops: GcOperations;
  profile: NamingProfile;
  /** Queues a node for attemptToDelete. */
  enqueue(node: GraphNode): void;
}

export async function attemptToDeleteItem(node: GraphNode, c: AttemptContext): Promise<void> {
  // Being deleted is a one-way trip: its dependents are looked at once it is gone.
  if (node.beingDeleted && !node.deletingDependents) return;
  if (node.observed) {
    try {
      await decide(node, graphState(node), c);
      return;
    } catch (err) {
      // The graph's view was stale: judge again from what the server has now.
      if (!isConflict(err)) throw err;
    }
  }
  const wasVirtual = !node.observed;
  let latest: ObjectState;
  try {
    latest = stateOf(await c.ops.get(node));
  } catch (err) {
    if (!isNotFound(err)) throw err;
    gone(node, wasVirtual, c);
    return;
  }
  if (latest.uid !== node.uid) {
    gone(node, wasVirtual, c);
    return;
  }
  await decide(node, latest, c);
}

function graphState(node: GraphNode): ObjectState {
  const finalizers: string[] = [];
  if (node.hasOrphanFinalizer) finalizers.push(ORPHAN_FINALIZER);
  if (node.hasForegroundFinalizer) finalizers.push(FOREGROUND_FINALIZER);
  return {
    uid: node.uid,
    resourceVersion: node.resourceVersion,
    owners: node.owners,
    finalizers,
    deleting: node.beingDeleted,
  };
}

/**
 * The server does not have the node's object. A node that was virtual when asked about but has
 * been seen by a watch since is left to the watch, which is the later word (the read may predate
 * the object); otherwise the graph forgets it (upstream's virtual delete).
 */
function gone(node: GraphNode, wasVirtual: boolean, c: AttemptContext): void {
  if (wasVirtual && node.observed) return;
  let namespace = node.namespace;
  try {
    if (!c.ops.mapping(node).namespaced) namespace = '';
  } catch {
    // An unknown type cannot have been read; keep the namespace the node was named in.
  }
  c.graph.virtualDelete({ type: node.type, namespace, name: node.name, uid: node.uid });
}

async function decide(node: GraphNode, latest: ObjectState, c: AttemptContext): Promise<void> {
  if (node.deletingDependents) {
    await processDeletingDependents(node, c);
    return;
  }
  if (latest.owners.length === 0) return;
  const { solid, dangling, waiting } = await classifyReferences(
    node,
    latest.owners,
    c.graph,
    c.ops,
    c.profile,
  );
  if (solid.length > 0) {
    if (dangling.length === 0 && waiting.length === 0) return;
    // References to owners waiting for their dependents go too, or those owners would wait forever.
    const gone = new Set([...dangling, ...waiting].map((r) => r.uid));
    await c.ops.removeOwnerReferences(node, gone, latest);
    return;
  }
  if (waiting.length > 0 && node.dependents !== undefined && node.dependents.size > 0) {
    // A dependent that itself waits for its dependents may close a cycle: stop blocking first.
    let unblocked = false;
    for (const d of node.dependentList()) {
      if (d.deletingDependents) {
        await c.ops.unblockOwnerReferences(node, latest);
        unblocked = true;
        break;
      }
    }
    // After our own write the version differs: the uid alone pins the object then.
    await c.ops.delete(node, 'Foreground', unblocked ? undefined : latest);
    return;
  }
  let policy: PropagationPolicy = 'Background';
  if (latest.finalizers.includes(ORPHAN_FINALIZER)) policy = 'Orphan';
  else if (latest.finalizers.includes(FOREGROUND_FINALIZER)) policy = 'Foreground';
  await c.ops.delete(node, policy, latest);
}

async function processDeletingDependents(node: GraphNode, c: AttemptContext): Promise<void> {
  const blocking = node.blockingDependents();
  if (blocking.length === 0) {
    await c.ops.removeFinalizer(node, FOREGROUND_FINALIZER);
    return;
  }
  for (const d of blocking) if (!d.deletingDependents) c.enqueue(d);
}
