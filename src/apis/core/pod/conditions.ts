// Setting one condition of a Pod's status as upstream's helper does: a new condition is appended
// with the transition time now; an existing one keeps its transition time while its status stays.

import type { ApiObject } from '../../../machinery/object.ts';
import { nowTimestamp } from '../../../registry/generic-store.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface PodConditionInput {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

export function setPodCondition(pod: ApiObject, input: PodConditionInput): void {
  const status: Obj = isObj(pod.status) ? pod.status : {};
  pod.status = status;
  const conditions: Obj[] = Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [];
  status.conditions = conditions;
  const condition: Obj = { type: input.type };
  // The generation the condition was set for (upstream's pod observedGeneration tracking).
  const generation = pod.metadata?.generation;
  if (typeof generation === 'number' && generation > 0) condition.observedGeneration = generation;
  condition.status = input.status;
  condition.lastProbeTime = null;
  condition.lastTransitionTime = nowTimestamp();
  if (input.reason !== undefined) condition.reason = input.reason;
  if (input.message !== undefined) condition.message = input.message;
  const i = conditions.findIndex((c) => isObj(c) && c.type === input.type);
  if (i === -1) {
    conditions.push(condition);
    return;
  }
  const old = conditions[i];
  if (old.status === input.status && old.lastTransitionTime !== undefined) {
    condition.lastTransitionTime = old.lastTransitionTime;
  }
  conditions[i] = condition;
}
