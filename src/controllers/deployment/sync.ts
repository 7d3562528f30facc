// The non-rollout paths of a sync (upstream's sync.go): a paused Deployment or a resize only scales
// (proportionally) and reports status; a Deployment being deleted only reports status; the
// Progressing condition records pausing and resuming, so time spent paused never counts against
// progressDeadlineSeconds.

import { desiredReplicasAnnotation } from './annotations.ts';
import { getCondition, newCondition, PROGRESSING, REASONS, setCondition } from './conditions.ts';
import { nowOf, type SyncContext } from './context.ts';
import { cleanupDeployment } from './history.ts';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.ts';
import { activeOf } from './replicasets.ts';
import { rollbackTo } from './rollback.ts';
import { scale } from './scale.ts';
import { syncDeploymentStatus } from './status.ts';
import { type Deployment, desiredReplicas, hasProgressDeadline, type ReplicaSet } from './types.ts';
import { updateDeploymentStatus } from './writes.ts';

const withNew = (oldRSs: ReplicaSet[], newRS: ReplicaSet | undefined): (ReplicaSet | undefined)[] => [
  ...oldRSs,
  newRS,
];

/** Only recomputes the status (a Deployment being deleted). */
export async function syncStatusOnly(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
): Promise<void> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false);
  await syncDeploymentStatus(ctx, withNew(oldRSs, newRS), newRS, d);
}

/** Scales without rolling out (a resize, or a paused Deployment) and reports status. */
export async function sync(ctx: SyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false);
  await scale(ctx, d, newRS, oldRSs);
  // A paused Deployment is trimmed here, since no rollout will complete to trim it.
  if (d.spec?.paused && rollbackTo(ctx, d) === undefined) await cleanupDeployment(ctx, oldRSs, d);
  await syncDeploymentStatus(ctx, withNew(oldRSs, newRS), newRS, d);
}

/** Records DeploymentPaused / DeploymentResumed on the Progressing condition when the state changed. */
export async function checkPausedConditions(ctx: SyncContext, d: Deployment): Promise<void> {
  if (!hasProgressDeadline(d)) return;
  const cond = getCondition(d.status, PROGRESSING);
  // A reported lack of progress is not hidden behind a pause.
  if (cond?.reason === REASONS.timedOut) return;
  const pausedCondExists = cond?.reason === REASONS.paused;
  const now = nowOf(ctx);
  d.status ??= {};
  if (d.spec?.paused && !pausedCondExists)
    setCondition(d.status, newCondition(PROGRESSING, 'Unknown', REASONS.paused, 'Deployment is paused', now));
  else if (!d.spec?.paused && pausedCondExists)
    setCondition(
      d.status,
      newCondition(PROGRESSING, 'Unknown', REASONS.resumed, 'Deployment is resumed', now),
    );
  else return;
  await updateDeploymentStatus(ctx, d);
}

/** Whether spec.replicas differs from what an active ReplicaSet was last sized for. */
export async function isScalingEvent(
  ctx: SyncContext,
  d: Deployment,
  rsList: readonly ReplicaSet[],
): Promise<boolean> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false);
  for (const rs of activeOf(withNew(oldRSs, newRS))) {
    const desired = desiredReplicasAnnotation(rs, ctx.names);
    if (desired !== undefined && desired !== desiredReplicas(d)) return true;
  }
  return false;
}
