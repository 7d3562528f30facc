// The loose shapes of Deployments and ReplicaSets as the deployment controller reads them, the
// resources it watches, and accessors that apply the server's defaults to fields a hand-made object
// (a test's, an old client's) may lack.

import type { GroupVersionResource } from '../../client/api.ts';
import type { LabelSelector } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { PodTemplateSpec, ReplicaSet, WorkloadCondition } from '../workload/apps-types.ts';

export const DEPLOYMENTS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
export { REPLICA_SETS } from '../workload/apps-types.ts';
export const APPS_V1 = 'apps/v1';

export type IntOrString = number | string;

export type Condition = WorkloadCondition;

export type PodTemplate = PodTemplateSpec;

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  collisionCount?: number;
  conditions?: Condition[];
}

export interface Deployment extends ApiObject {
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplate;
    strategy?: {
      type?: string;
      rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString };
    };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    progressDeadlineSeconds?: number;
    paused?: boolean;
    [f: string]: unknown;
  };
  status?: DeploymentStatus;
}

export type { ReplicaSet, ReplicaSetStatus } from '../workload/apps-types.ts';

export const ROLLING_UPDATE = 'RollingUpdate';
export const RECREATE = 'Recreate';

/** Go's math.MaxInt32: upstream's "no limit" for progressDeadlineSeconds and revisionHistoryLimit. */
export const MAX_INT32 = 2147483647;

/** spec.replicas, 1 when unset (the server's default). */
export function desiredReplicas(d: Deployment): number {
  return d.spec?.replicas ?? 1;
}

/** spec.replicas of a ReplicaSet, 1 when unset (the server's default). */
export function rsReplicas(rs: ReplicaSet): number {
  return rs.spec?.replicas ?? 1;
}

export function strategyType(d: Deployment): string {
  return d.spec?.strategy?.type ?? ROLLING_UPDATE;
}

export function isRollingUpdate(d: Deployment): boolean {
  return strategyType(d) === ROLLING_UPDATE;
}

export function hasProgressDeadline(d: Deployment): boolean {
  const p = d.spec?.progressDeadlineSeconds;
  return typeof p === 'number' && p !== MAX_INT32;
}

export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const l = d.spec?.revisionHistoryLimit;
  return typeof l === 'number' && l !== MAX_INT32;
}

export function uidOf(obj: ApiObject | undefined): string {
  return String(obj?.metadata?.uid ?? '');
}

/** A timestamp as the API writes one: RFC 3339 to the second. */
export function apiTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}
