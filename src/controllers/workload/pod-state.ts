// What workload controllers read from a Pod: the loose shape of the fields they use, and upstream's
// predicates over it (active, ready, available after minReadySeconds, terminating). A Pod being
// deleted gracefully is no longer active: it counts as terminating until it is gone.

import type { ApiObject } from '../../machinery/object.ts';

export interface PodCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  [field: string]: unknown;
}

export interface ContainerStatusLike {
  name?: string;
  restartCount?: number;
  [field: string]: unknown;
}

/** The fields of a Pod the workload controllers read; everything else passes through untouched. */
export interface PodLike extends ApiObject {
  spec?: {
    nodeName?: string;
    initContainers?: { name?: string; restartPolicy?: string; [field: string]: unknown }[];
    [field: string]: unknown;
  };
  status?: {
    phase?: string;
    conditions?: PodCondition[];
    containerStatuses?: ContainerStatusLike[];
    initContainerStatuses?: ContainerStatusLike[];
    [field: string]: unknown;
  };
}

/** Succeeded or Failed: the Pod will run no more. */
export function isPodTerminal(pod: PodLike): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Neither finished nor being deleted (upstream's IsPodActive). */
export function isPodActive(pod: PodLike): boolean {
  return !isPodTerminal(pod) && !pod.metadata?.deletionTimestamp;
}

/** Being deleted but not finished (upstream's IsPodTerminating). */
export function isPodTerminating(pod: PodLike): boolean {
  return !isPodTerminal(pod) && Boolean(pod.metadata?.deletionTimestamp);
}

/** The Pod's Ready condition, if it has one. */
export function podReadyCondition(pod: PodLike): PodCondition | undefined {
  const conds = pod.status?.conditions;
  return Array.isArray(conds) ? conds.find((c) => c?.type === 'Ready') : undefined;
}

export function isPodReady(pod: PodLike): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** Milliseconds since the epoch of an RFC 3339 time, or undefined when absent or unreadable. */
export function timeOf(s: unknown): number | undefined {
  if (typeof s !== 'string' || s === '') return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Ready, and (unless minReadySeconds is 0) ready since strictly more than minReadySeconds before
 * `now` (upstream's IsPodAvailable; a Ready condition without a transition time is not available).
 */
export function isPodAvailable(pod: PodLike, minReadySeconds: number, now: Date): boolean {
  const c = podReadyCondition(pod);
  if (c?.status !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = timeOf(c.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 < now.getTime();
}
