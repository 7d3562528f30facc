// A Deployment's status as its ReplicaSets make it (upstream's calculateStatus): the replica
// counts, the Available condition by maxUnavailable, terminatingReplicas behind its gate; and the
// predicates progress is judged by (complete, progressing, timed out).

import { AVAILABLE, getCondition, newCondition, PROGRESSING, REASONS, setCondition } from './conditions.ts';
import { nowOf, type SyncContext } from './context.ts';
import { maxUnavailable } from './fenceposts.ts';
import {
  actualReplicaCount,
  availableReplicaCount,
  readyReplicaCount,
  specReplicaCount,
  terminatingReplicaCount,
} from './replicasets.ts';
import {
  type Deployment,
  type DeploymentStatus,
  desiredReplicas,
  hasProgressDeadline,
  type ReplicaSet,
} from './types.ts';
import { updateDeploymentStatus } from './writes.ts';

/** Fields Go leaves out of the JSON when zero; collisionCount and terminatingReplicas are pointers. */
const OMIT_WHEN_ZERO = [
  'observedGeneration',
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
] as const;

/** The status as Go would serialize it, so a stored status and a computed one compare equal. */
export function normalizeStatus(s: DeploymentStatus | undefined): DeploymentStatus {
  const out: DeploymentStatus = { ...(s ?? {}) };
  for (const k of OMIT_WHEN_ZERO) if (!out[k]) delete out[k];
  if (out.collisionCount === undefined || out.collisionCount === null) delete out.collisionCount;
  if (out.terminatingReplicas === undefined || out.terminatingReplicas === null)
    delete out.terminatingReplicas;
  if (out.conditions === undefined || out.conditions.length === 0) delete out.conditions;
  return out;
}

function stable(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, (x as Record<string, unknown>)[k]]),
        )
      : x,
  );
}

export function sameStatus(a: DeploymentStatus | undefined, b: DeploymentStatus | undefined): boolean {
  return stable(normalizeStatus(a)) === stable(normalizeStatus(b));
}

export function calculateStatus(
  ctx: SyncContext,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
): DeploymentStatus {
  const available = availableReplicaCount(allRSs);
  // More available than wanted (while scaling down) is not negative unavailability.
  const unavailable = Math.max(0, specReplicaCount(allRSs) - available);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata?.generation ?? 0,
    replicas: actualReplicaCount(allRSs),
    updatedReplicas: actualReplicaCount([newRS]),
    readyReplicas: readyReplicaCount(allRSs),
    availableReplicas: available,
    unavailableReplicas: unavailable,
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (ctx.terminatingReplicas) {
    const t = terminatingReplicaCount(allRSs);
    if (t !== undefined) status.terminatingReplicas = t;
  }
  status.conditions = (d.status?.conditions ?? []).map((c) => ({ ...c }));
  const now = nowOf(ctx);
  if (available >= desiredReplicas(d) - maxUnavailable(d))
    setCondition(
      status,
      newCondition(
        AVAILABLE,
        'True',
        REASONS.minimumReplicasAvailable,
        'Deployment has minimum availability.',
        now,
      ),
    );
  else
    setCondition(
      status,
      newCondition(
        AVAILABLE,
        'False',
        REASONS.minimumReplicasUnavailable,
        'Deployment does not have minimum availability.',
        now,
      ),
    );
  return normalizeStatus(status);
}

/** Every desired replica updated and available, none old, and this generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const want = desiredReplicas(d);
  return (
    (s.updatedReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want &&
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** New Pods up, ready or available, or old Pods gone, since the status the Deployment has. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** Whether the Progressing condition's last update is more than progressDeadlineSeconds ago. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, PROGRESSING);
  if (c === undefined) return false;
  // A finished rollout is not judged again until its condition catches up with a new one.
  if (c.reason === REASONS.newRSAvailable) return false;
  if (c.reason === REASONS.timedOut) return true;
  const from = Date.parse(c.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return false;
  return from + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 < nowMs;
}

/** Writes the status the ReplicaSets make, when it differs (upstream's syncDeploymentStatus). */
export async function syncDeploymentStatus(
  ctx: SyncContext,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
): Promise<void> {
  const status = calculateStatus(ctx, allRSs, newRS, d);
  if (sameStatus(d.status, status)) return;
  d.status = status;
  await updateDeploymentStatus(ctx, d);
}
