// revisionHistoryLimit (upstream's cleanupDeployment): of the old ReplicaSets not being deleted,
// all but the newest `limit` by revision are deleted, lowest revision first, skipping any that
// still has replicas (wanted or running) or whose latest spec its controller has not yet seen.

import { isNotFound } from '../controller-support.ts';
import { revisionOf } from './annotations.ts';
import type { SyncContext } from './context.ts';
import { byCreation } from './replicasets.ts';
import { type Deployment, hasRevisionHistoryLimit, type ReplicaSet, rsReplicas } from './types.ts';
import { deleteReplicaSet } from './writes.ts';

/** Revision order (unreadable revisions count as 0), then creation (upstream's ReplicaSetsByRevision). */
export function byRevision(ctx: Pick<SyncContext, 'names'>): (a: ReplicaSet, b: ReplicaSet) => number {
  return (a, b) => {
    const ra = revisionOf(a, ctx.names) ?? 0;
    const rb = revisionOf(b, ctx.names) ?? 0;
    return ra !== rb ? ra - rb : byCreation(a, b);
  };
}

function deletable(rs: ReplicaSet): boolean {
  return (
    (rs.status?.replicas ?? 0) === 0 &&
    rsReplicas(rs) === 0 &&
    (rs.metadata?.generation ?? 0) <= (rs.status?.observedGeneration ?? 0) &&
    !rs.metadata?.deletionTimestamp
  );
}

/** The ReplicaSets cleanup would delete now, in order. */
export function replicaSetsToClean(
  ctx: Pick<SyncContext, 'names'>,
  oldRSs: readonly ReplicaSet[],
  d: Deployment,
): ReplicaSet[] {
  if (!hasRevisionHistoryLimit(d)) return [];
  const alive = oldRSs.filter((rs) => !rs.metadata?.deletionTimestamp);
  const diff = alive.length - (d.spec?.revisionHistoryLimit ?? 0);
  if (diff <= 0) return [];
  return alive.sort(byRevision(ctx)).slice(0, diff).filter(deletable);
}

export async function cleanupDeployment(
  ctx: SyncContext,
  oldRSs: readonly ReplicaSet[],
  d: Deployment,
): Promise<void> {
  for (const rs of replicaSetsToClean(ctx, oldRSs, d)) {
    try {
      await deleteReplicaSet(ctx, rs);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
