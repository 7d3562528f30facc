// The shapes the node agents and the scheduler read and write (the parts of Pod, Node, Lease and
// Binding they touch), the resources they address, and small readers of API failures. Typed here
// rather than taken from apis/, since this layer talks to the API only through the client.

import type { GroupVersionResource } from '../client/api.ts';
import type { ApiObject, ObjectMeta } from '../machinery/object.ts';

const core = (resource: string): GroupVersionResource => ({ group: '', version: 'v1', resource });

export const PODS = core('pods');
export const NODES = core('nodes');

export interface Probe {
  initialDelaySeconds?: number;
}

export interface Container {
  name: string;
  image?: string;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  /** `Always` on an init container makes it a sidecar that keeps running. */
  restartPolicy?: string;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: string;
}

export interface PodSpec {
  nodeName?: string;
  schedulerName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  containers?: Container[];
  initContainers?: Container[];
  restartPolicy?: string;
  readinessGates?: { conditionType: string }[];
  hostNetwork?: boolean;
  terminationGracePeriodSeconds?: number;
}

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  lastHeartbeatTime?: string;
  observedGeneration?: number;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: {
    exitCode: number;
    reason?: string;
    startedAt?: string;
    finishedAt?: string;
    containerID?: string;
  };
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
}

export interface PodStatus {
  observedGeneration?: number;
  phase?: string;
  conditions?: Condition[];
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: string;
}

export interface Pod extends ApiObject {
  metadata?: ObjectMeta;
  spec?: PodSpec;
  status?: PodStatus;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface Node extends ApiObject {
  metadata?: ObjectMeta;
  spec?: { unschedulable?: boolean; taints?: Taint[]; podCIDR?: string; podCIDRs?: string[] };
  status?: {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    conditions?: Condition[];
    addresses?: { type: string; address: string }[];
    nodeInfo?: Record<string, string>;
    [k: string]: unknown;
  };
}

/** `namespace/name`, or `name` for a cluster-scoped object. */
export function keyOf(obj: ApiObject): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name ?? ''}` : (obj.metadata?.name ?? '');
}

/** RFC 3339 at whole seconds, as metav1.Time serialises. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The HTTP status code an API failure carries (machinery's ApiError), if any. */
export function statusCode(err: unknown): number | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const s = (err as { status?: { code?: unknown } }).status;
  if (s !== null && typeof s === 'object' && typeof s.code === 'number') return s.code;
  const c = (err as { code?: unknown }).code;
  return typeof c === 'number' ? c : undefined;
}

export const isNotFound = (err: unknown): boolean => statusCode(err) === 404;
export const isConflict = (err: unknown): boolean => statusCode(err) === 409;

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
