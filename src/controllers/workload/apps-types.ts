// The loose shape of a ReplicaSet (and the pod template and conditions it shares with Deployments)
// as the workload controllers read it: the ReplicaSet controller owns them, the Deployment
// controller sizes them. Fields a hand-made object may lack are optional.

import type { GroupVersionResource } from '../../client/api.ts';
import type { LabelSelector } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';

export const REPLICA_SETS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'replicasets' };

/** A condition of a Deployment or a ReplicaSet (only Deployments' carry lastUpdateTime). */
export interface WorkloadCondition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodTemplateSpec {
  metadata?: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    [field: string]: unknown;
  };
  spec?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: WorkloadCondition[];
}

export interface ReplicaSet extends ApiObject {
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    [field: string]: unknown;
  };
  status?: ReplicaSetStatus;
}
