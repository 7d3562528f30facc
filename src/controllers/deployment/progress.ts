// The rollout's progress (upstream's progress.go): after each step of a rollout the status is
// recomputed and the Progressing condition moved on (complete, progressing, or past
// progressDeadlineSeconds), the ReplicaSets' ReplicaFailure promoted, and a Deployment that shows
// no progress is looked at again when its deadline falls due.

import {
  fromReplicaSetCondition,
  getCondition,
  newCondition,
  PROGRESSING,
  REASONS,
  REPLICA_FAILURE,
  removeCondition,
  setCondition,
} from './conditions.ts';
import { nowOf, type SyncContext } from './context.ts';
import {
  calculateStatus,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  normalizeStatus,
  sameStatus,
} from './status.ts';
import type { Condition, Deployment, DeploymentStatus, ReplicaSet } from './types.ts';
import { hasProgressDeadline } from './types.ts';
import { updateDeploymentStatus } from './writes.ts';

/** The new ReplicaSet's ReplicaFailure conditions, else the old ones'. */
export function replicaFailures(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): Condition[] {
  const failures = (rs: ReplicaSet | undefined) =>
    (rs?.status?.conditions ?? []).filter((c) => c.type === REPLICA_FAILURE).map(fromReplicaSetCondition);
  const own = failures(newRS);
  if (own.length > 0) return own;
  return allRSs.flatMap(failures);
}

function nameOf(rs: ReplicaSet): string {
  return String(rs.metadata?.name ?? '');
}

export async function syncRolloutStatus(
  ctx: SyncContext,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
): Promise<void> {
  const status = calculateStatus(ctx, allRSs, newRS, d);
  if (!hasProgressDeadline(d)) removeCondition(status, PROGRESSING);
  const current = getCondition(d.status, PROGRESSING);
  const isComplete =
    (status.replicas ?? 0) === (status.updatedReplicas ?? 0) && current?.reason === REASONS.newRSAvailable;
  const now = nowOf(ctx);
  const dname = JSON.stringify(String(d.metadata?.name ?? ''));
  if (hasProgressDeadline(d) && !isComplete) {
    if (deploymentComplete(d, status)) {
      const msg =
        newRS !== undefined
          ? `ReplicaSet ${JSON.stringify(nameOf(newRS))} has successfully progressed.`
          : `Deployment ${dname} has successfully progressed.`;
      setCondition(status, newCondition(PROGRESSING, 'True', REASONS.newRSAvailable, msg, now));
    } else if (deploymentProgressing(d, status)) {
      const msg =
        newRS !== undefined
          ? `ReplicaSet ${JSON.stringify(nameOf(newRS))} is progressing.`
          : `Deployment ${dname} is progressing.`;
      const cond = newCondition(PROGRESSING, 'True', REASONS.replicaSetUpdated, msg, now);
      // Progress moves lastUpdateTime even under the same reason, which setCondition would not do.
      if (current !== undefined) {
        if (current.status === 'True') cond.lastTransitionTime = current.lastTransitionTime;
        removeCondition(status, PROGRESSING);
      }
      setCondition(status, cond);
    } else if (deploymentTimedOut(d, status, ctx.clock.now())) {
      const msg =
        newRS !== undefined
          ? `ReplicaSet ${JSON.stringify(nameOf(newRS))} has timed out progressing.`
          : `Deployment ${dname} has timed out progressing.`;
      setCondition(status, newCondition(PROGRESSING, 'False', REASONS.timedOut, msg, now));
    }
  }
  const failures = replicaFailures(allRSs, newRS);
  if (failures.length > 0) setCondition(status, failures[0]);
  else removeCondition(status, REPLICA_FAILURE);
  const next = normalizeStatus(status);
  if (sameStatus(d.status, next)) {
    requeueStuckDeployment(ctx, d, next);
    return;
  }
  d.status = next;
  await updateDeploymentStatus(ctx, d);
}

/**
 * Schedules a look at a Deployment whose rollout shows no progress for when its deadline falls due
 * (a second late, against timer skew); at once, rate limited, when less than a second is left.
 * Returns the delay in ms, -1 when none was needed.
 */
export function requeueStuckDeployment(ctx: SyncContext, d: Deployment, status: DeploymentStatus): number {
  const current = getCondition(d.status, PROGRESSING);
  if (!hasProgressDeadline(d) || current === undefined) return -1;
  if (deploymentComplete(d, status) || current.reason === REASONS.timedOut) return -1;
  const from = Date.parse(current.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return -1;
  const after = from + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 - ctx.clock.now();
  if (after < 1000) {
    ctx.enqueueRateLimited(d);
    return 0;
  }
  ctx.enqueueAfter(d, after + 1000);
  return after;
}
