// The RollingUpdate strategy (upstream's rolling.go): each sync either grows the new ReplicaSet up
// to replicas + maxSurge, or shrinks old ones while at least replicas - maxUnavailable stay
// available: first old Pods that are not available anyway (oldest ReplicaSet first), then
// available ones. Once the rollout is complete the history is trimmed.

import type { SyncContext } from './context.ts';
import { maxUnavailable } from './fenceposts.ts';
import { cleanupDeployment } from './history.ts';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.ts';
import { syncRolloutStatus } from './progress.ts';
import { newRSNewReplicas } from './proportions.ts';
import { activeOf, availableReplicaCount, byCreation, specReplicaCount } from './replicasets.ts';
import { scaleReplicaSetAndRecordEvent } from './scale.ts';
import { deploymentComplete } from './status.ts';
import { type Deployment, desiredReplicas, type ReplicaSet, rsReplicas } from './types.ts';

export async function rolloutRolling(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
): Promise<void> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true);
  if (newRS === undefined) throw new Error('new replica set was not created');
  const allRSs = [...oldRSs, newRS];
  if (await reconcileNewReplicaSet(ctx, allRSs, newRS, d)) return syncRolloutStatus(ctx, allRSs, newRS, d);
  if (await reconcileOldReplicaSets(ctx, allRSs, activeOf(oldRSs), newRS, d))
    return syncRolloutStatus(ctx, allRSs, newRS, d);
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(ctx, oldRSs, d);
  return syncRolloutStatus(ctx, allRSs, newRS, d);
}

/** Scales the new ReplicaSet toward spec.replicas as far as maxSurge allows; whether it scaled. */
export async function reconcileNewReplicaSet(
  ctx: SyncContext,
  allRSs: readonly ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): Promise<boolean> {
  const want = desiredReplicas(d);
  if (rsReplicas(newRS) === want) return false;
  if (rsReplicas(newRS) > want) return (await scaleReplicaSetAndRecordEvent(ctx, newRS, want, d)).scaled;
  return (await scaleReplicaSetAndRecordEvent(ctx, newRS, newRSNewReplicas(d, allRSs, newRS), d)).scaled;
}

/** Scales old ReplicaSets down as far as availability allows; whether any was scaled. */
export async function reconcileOldReplicaSets(
  ctx: SyncContext,
  allRSs: readonly ReplicaSet[],
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): Promise<boolean> {
  if (specReplicaCount(oldRSs) === 0) return false;
  const minAvailable = desiredReplicas(d) - maxUnavailable(d);
  const newRSUnavailable = rsReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  // What may go without dropping below minAvailable, counting the new ReplicaSet's unavailable
  // Pods as lost already.
  const maxScaledDown = specReplicaCount(allRSs) - minAvailable - newRSUnavailable;
  if (maxScaledDown <= 0) return false;
  const cleaned = await cleanupUnhealthyReplicas(ctx, oldRSs, d, maxScaledDown);
  const scaledDown = await scaleDownOldReplicaSetsForRollingUpdate(
    ctx,
    [...cleaned.oldRSs, newRS],
    cleaned.oldRSs,
    d,
  );
  return cleaned.count + scaledDown > 0;
}

/** Removes old Pods that are not available (they cost no availability), up to `maxCleanup`. */
export async function cleanupUnhealthyReplicas(
  ctx: SyncContext,
  oldRSs: ReplicaSet[],
  d: Deployment,
  maxCleanup: number,
): Promise<{ oldRSs: ReplicaSet[]; count: number }> {
  const sorted = [...oldRSs].sort(byCreation);
  let total = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (total >= maxCleanup) break;
    const rs = sorted[i];
    const replicas = rsReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (replicas === 0 || replicas === available) continue;
    const count = Math.min(maxCleanup - total, replicas - available);
    const target = replicas - count;
    if (target > replicas)
      throw new Error(
        `when cleaning up unhealthy replicas, got invalid request to scale down ${String(rs.metadata?.namespace)}/${String(rs.metadata?.name)} ${replicas} -> ${target}`,
      );
    sorted[i] = (await scaleReplicaSetAndRecordEvent(ctx, rs, target, d)).rs;
    total += count;
  }
  return { oldRSs: sorted, count: total };
}

/** Scales old ReplicaSets down, oldest first, by what availability above minAvailable allows. */
export async function scaleDownOldReplicaSetsForRollingUpdate(
  ctx: SyncContext,
  allRSs: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  d: Deployment,
): Promise<number> {
  const minAvailable = desiredReplicas(d) - maxUnavailable(d);
  const available = availableReplicaCount(allRSs);
  if (available <= minAvailable) return 0;
  const budget = available - minAvailable;
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= budget) break;
    const replicas = rsReplicas(rs);
    if (replicas === 0) continue;
    const count = Math.min(replicas, budget - total);
    const target = replicas - count;
    if (target > replicas)
      throw new Error(
        `when scaling down old replica set, got invalid request to scale down ${String(rs.metadata?.namespace)}/${String(rs.metadata?.name)} ${replicas} -> ${target}`,
      );
    await scaleReplicaSetAndRecordEvent(ctx, rs, target, d);
    total += count;
  }
  return total;
}
