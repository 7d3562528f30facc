// The Recreate strategy (upstream's recreate.go): every old ReplicaSet goes to zero first; only when
// no old Pod is left running (terminal ones do not count) is the new ReplicaSet created or scaled
// to spec.replicas. Trims the history once complete.

import type { SyncContext } from './context.ts';
import { cleanupDeployment } from './history.ts';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.ts';
import { syncRolloutStatus } from './progress.ts';
import { activeOf, actualReplicaCount } from './replicasets.ts';
import { scaleReplicaSetAndRecordEvent } from './scale.ts';
import { deploymentComplete } from './status.ts';
import { type Deployment, desiredReplicas, type ReplicaSet, uidOf } from './types.ts';

/** A Pod as this strategy reads it. */
export interface PodPhaseLike {
  status?: { phase?: string };
}

/** Pods of the Deployment's ReplicaSets, by ReplicaSet uid. */
export type PodMap = Map<string, PodPhaseLike[]>;

/** Whether any old ReplicaSet still reports Pods, or any old Pod has not finished. */
export function oldPodsRunning(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
  podMap: PodMap,
): boolean {
  if (actualReplicaCount(oldRSs) > 0) return true;
  for (const [uid, pods] of podMap) {
    if (newRS !== undefined && uidOf(newRS) === uid) continue;
    for (const pod of pods) {
      const phase = pod.status?.phase;
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}

export async function rolloutRecreate(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
  podMap: PodMap,
): Promise<void> {
  let { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false);
  let allRSs: ReplicaSet[] = newRS === undefined ? [...oldRSs] : [...oldRSs, newRS];

  let scaledDown = false;
  for (const rs of activeOf(oldRSs)) {
    if ((await scaleReplicaSetAndRecordEvent(ctx, rs, 0, d)).scaled) scaledDown = true;
  }
  if (scaledDown) return syncRolloutStatus(ctx, allRSs, newRS, d);
  if (oldPodsRunning(newRS, oldRSs, podMap)) return syncRolloutStatus(ctx, allRSs, newRS, d);

  if (newRS === undefined) {
    ({ newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true));
    allRSs = newRS === undefined ? [...oldRSs] : [...oldRSs, newRS];
  }
  if (newRS !== undefined) await scaleReplicaSetAndRecordEvent(ctx, newRS, desiredReplicas(d), d);
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(ctx, oldRSs, d);
  return syncRolloutStatus(ctx, allRSs, newRS, d);
}
