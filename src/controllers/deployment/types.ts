// The loose shapes of Deployments and ReplicaSets as the deployment controller reads them, the
// resources it watches, and accessors that apply the server's defaults to fields a hand-made object
// (a test's, an old client's) may lack.

import type { GroupVersionResource } from '../../client/api.ts';
import type { LabelSelector } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';

export const DEPLOYMENTS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
export const REPLICA_SETS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'replicasets' };
export const APPS_V1 = 'apps/v1';

export type IntOrString = number | string;

export interface Condition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; [f: string]: unknown };
  spec?: Record<string, unknown>;
  [f: string]: unknown;
}

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

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: Condition[];
}

export interface ReplicaSet extends ApiObject {
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelector;
    template?: PodTemplate;
    [f: string]: unknown;
  };
  status?: ReplicaSetStatus;
}

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
