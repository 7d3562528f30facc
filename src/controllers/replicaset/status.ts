// A ReplicaSet's status computed from its Pods (upstream's calculateStatus): replicas counts the
// active Pods it owns, fullyLabeledReplicas those carrying every label of the template,
// readyReplicas the ready ones and availableReplicas those ready for minReadySeconds; the
// ReplicaFailure condition says why the last create or delete failed and goes once a sync succeeds.

import { matcherFromSet } from '../../machinery/labels.ts';
import { messageOf } from '../controller-support.ts';
import { isPodAvailable, isPodReady, type PodLike } from '../workload/pod-state.ts';
import {
  desiredReplicas,
  minReadySecondsOf,
  type ReplicaSet,
  type ReplicaSetCondition,
  type ReplicaSetStatus,
} from './types.ts';

export const REPLICA_FAILURE = 'ReplicaFailure';

function wireTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** Sets a condition unless one of its type already has the same status and reason. */
export function setCondition(status: ReplicaSetStatus, cond: ReplicaSetCondition): void {
  const conds = status.conditions ?? [];
  const cur = conds.find((c) => c.type === cond.type);
  if (cur !== undefined && cur.status === cond.status && cur.reason === cond.reason) return;
  status.conditions = [...conds.filter((c) => c.type !== cond.type), cond];
}

export function removeCondition(status: ReplicaSetStatus, type: string): void {
  const conds = (status.conditions ?? []).filter((c) => c.type !== type);
  if (conds.length > 0) status.conditions = conds;
  else delete status.conditions;
}

export interface StatusInputs {
  /** Active Pods the ReplicaSet owns. */
  active: readonly PodLike[];
  /** Terminating Pods it owns; undefined when the feature gate is off (the field is then left out). */
  terminating: readonly PodLike[] | undefined;
  /** The failure of this sync's creates or deletes, if any. */
  manageError: unknown;
  now: number;
}

export function calculateStatus(rs: ReplicaSet, inputs: StatusInputs): ReplicaSetStatus {
  const status: ReplicaSetStatus = structuredClone(rs.status ?? {});
  const template = matcherFromSet(rs.spec?.template?.metadata?.labels);
  const minReady = minReadySecondsOf(rs);
  const now = new Date(inputs.now);
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of inputs.active) {
    if (template.matches(pod.metadata?.labels)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
    }
  }
  const hasFailure = (rs.status?.conditions ?? []).some((c) => c.type === REPLICA_FAILURE);
  if (inputs.manageError !== undefined && !hasFailure) {
    const diff = inputs.active.length - desiredReplicas(rs);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    const cond: ReplicaSetCondition = {
      type: REPLICA_FAILURE,
      status: 'True',
      lastTransitionTime: wireTime(inputs.now),
    };
    if (reason) cond.reason = reason;
    cond.message = messageOf(inputs.manageError);
    setCondition(status, cond);
  } else if (inputs.manageError === undefined && hasFailure) {
    removeCondition(status, REPLICA_FAILURE);
  }
  status.replicas = inputs.active.length;
  // Zero counts are left out, as upstream's omitempty fields are.
  setCount(status, 'fullyLabeledReplicas', fullyLabeled);
  setCount(status, 'readyReplicas', ready);
  setCount(status, 'availableReplicas', available);
  if (inputs.terminating === undefined) delete status.terminatingReplicas;
  else status.terminatingReplicas = inputs.terminating.length;
  return status;
}

function setCount(
  status: ReplicaSetStatus,
  field: 'fullyLabeledReplicas' | 'readyReplicas' | 'availableReplicas',
  n: number,
): void {
  if (n === 0) delete status[field];
  else status[field] = n;
}

/** Deep equality of JSON values, key order aside. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** Whether writing `next` would change nothing (upstream's early return of updateReplicaSetStatus). */
export function statusUnchanged(rs: ReplicaSet, next: ReplicaSetStatus): boolean {
  const cur = rs.status ?? {};
  return (
    (cur.replicas ?? 0) === (next.replicas ?? 0) &&
    (cur.fullyLabeledReplicas ?? 0) === (next.fullyLabeledReplicas ?? 0) &&
    (cur.readyReplicas ?? 0) === (next.readyReplicas ?? 0) &&
    (cur.availableReplicas ?? 0) === (next.availableReplicas ?? 0) &&
    cur.terminatingReplicas === next.terminatingReplicas &&
    (rs.metadata?.generation ?? 0) === (cur.observedGeneration ?? 0) &&
    jsonEqual(cur.conditions ?? [], next.conditions ?? [])
  );
}
