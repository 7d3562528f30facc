// The loose shape of a ReplicaSet as its controller reads it, the resources it watches, and the
// constants it shares with upstream (burst of 500 Pods per sync, the feature gate of
// terminatingReplicas, the event reasons).

import type { ReplicaSet, WorkloadCondition } from '../workload/apps-types.ts';

export { REPLICA_SETS } from '../workload/apps-types.ts';
export const RS_API_VERSION = 'apps/v1';
export const RS_KIND = 'ReplicaSet';

/** Upstream's BurstReplicas: at most this many Pods created or deleted per sync. */
export const BURST_REPLICAS = 500;
/** Upstream's SlowStartInitialBatchSize. */
export const SLOW_START_INITIAL_BATCH = 1;
/** Upstream's default ConcurrentRSSyncs. */
export const DEFAULT_WORKERS = 5;

export const TERMINATING_REPLICAS_GATE = 'DeploymentReplicaSetTerminatingReplicas';

/** Upstream's event reasons (pkg/controller's PodControl). */
export const REASON = {
  successfulCreate: 'SuccessfulCreate',
  failedCreate: 'FailedCreate',
  successfulDelete: 'SuccessfulDelete',
  failedDelete: 'FailedDelete',
} as const;

export type ReplicaSetCondition = WorkloadCondition;
export type { PodTemplateSpec, ReplicaSet, ReplicaSetStatus } from '../workload/apps-types.ts';

/** spec.replicas with the server's default (1) for a hand-made object without it. */
export function desiredReplicas(rs: ReplicaSet): number {
  const n = rs.spec?.replicas;
  return typeof n === 'number' ? n : 1;
}

export function minReadySecondsOf(rs: ReplicaSet): number {
  const n = rs.spec?.minReadySeconds;
  return typeof n === 'number' && n > 0 ? n : 0;
}

/** The ReplicaSet with its apiVersion and kind, as an event's involved object needs them. */
export function withKind(rs: ReplicaSet): ReplicaSet {
  return rs.kind === RS_KIND && rs.apiVersion ? rs : { ...rs, apiVersion: RS_API_VERSION, kind: RS_KIND };
}
