// A Pod's quality-of-service class, computed once at creation as upstream does: BestEffort without
// any CPU or memory request or limit, Guaranteed when every container (or the pod-level resources)
// sets CPU and memory limits equal to its requests, Burstable otherwise.

import type { Quantity } from '../../../machinery/quantity.ts';
import { quantityOf } from './resource-validation.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const QOS_RESOURCES = ['cpu', 'memory'];

/** Adds the positive CPU and memory quantities of `list` into `into`; answers which were there. */
function addPositive(list: unknown, into: Map<string, Quantity>): Set<string> {
  const found = new Set<string>();
  if (!isObj(list)) return found;
  for (const [name, raw] of Object.entries(list)) {
    if (!QOS_RESOURCES.includes(name)) continue;
    const q = quantityOf(raw);
    if (q === undefined || q.sign() <= 0) continue;
    found.add(name);
    const sum = into.get(name);
    into.set(name, sum === undefined ? q : sum.add(q));
  }
  return found;
}

export function podQOSClass(spec: unknown): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const s = isObj(spec) ? spec : {};
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  const podLevel = isObj(s.resources) ? s.resources : undefined;
  const sources: Obj[] = [];
  if (podLevel !== undefined) sources.push(podLevel);
  else {
    for (const list of [s.containers, s.initContainers]) {
      for (const c of Array.isArray(list) ? list : []) {
        if (isObj(c)) sources.push(isObj(c.resources) ? c.resources : {});
      }
    }
  }
  for (const r of sources) {
    addPositive(r.requests, requests);
    const limited = addPositive(r.limits, limits);
    // Pod-level resources without limits say nothing about them, as upstream reads them.
    const hasLimits = isObj(r.limits) && Object.keys(r.limits).length > 0;
    if ((podLevel === undefined || hasLimits) && !QOS_RESOURCES.every((n) => limited.has(n)))
      guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim === undefined || lim.cmp(req) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
