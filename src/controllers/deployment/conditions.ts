// Deployment conditions and their reasons (upstream's deployment_util): one condition per type; a
// condition set again with the same status and reason is left as it was, and one whose status did
// not change keeps its lastTransitionTime.

import type { Condition, DeploymentStatus } from './types.ts';

export const PROGRESSING = 'Progressing';
export const AVAILABLE = 'Available';
export const REPLICA_FAILURE = 'ReplicaFailure';

export const REASONS = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
  rollbackRevisionNotFound: 'DeploymentRollbackRevisionNotFound',
  rollbackTemplateUnchanged: 'DeploymentRollbackTemplateUnchanged',
  rollbackDone: 'DeploymentRollback',
} as const;

export function newCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
  now: string,
): Condition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

export function getCondition(status: DeploymentStatus | undefined, type: string): Condition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

export function setCondition(status: DeploymentStatus, condition: Condition): void {
  const current = getCondition(status, condition.type);
  if (current !== undefined && current.status === condition.status && current.reason === condition.reason)
    return;
  const next = { ...condition };
  if (current !== undefined && current.status === condition.status)
    next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  const kept = (status.conditions ?? []).filter((c) => c.type !== type);
  if (kept.length > 0) status.conditions = kept;
  else delete status.conditions;
}

/** A ReplicaSet's condition as the Deployment carries it (its transition time also as update time). */
export function fromReplicaSetCondition(c: Condition): Condition {
  const out: Condition = { type: c.type, status: c.status };
  if (c.lastTransitionTime !== undefined) {
    out.lastUpdateTime = c.lastTransitionTime;
    out.lastTransitionTime = c.lastTransitionTime;
  }
  if (c.reason !== undefined) out.reason = c.reason;
  if (c.message !== undefined) out.message = c.message;
  return out;
}
