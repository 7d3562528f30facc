// Which Pods a workload controller deletes first when it scales down (upstream's
// ActivePodsWithRanks, ranked by getPodsRankedByRelatedPodsOnSameNode): the Pods that cost least
// to lose come first. Order: unscheduled before scheduled; Pending, then Unknown, then Running; not
// ready before ready; lower pod-deletion-cost first; Pods on nodes crowded with related Pods first;
// recently ready before long ready; more container restarts first; newer before older. Ready and
// creation times are compared in logarithmic buckets of age (upstream's LogarithmicScaleDown), ties
// broken by uid, so scale-down does not always pick the very newest Pods.

import { podDeletionCostAnnotation } from '../../naming/pod-deletion-cost.ts';
import { type NamingProfile, namingProfile } from '../../naming/profile.ts';
import { isPodActive, isPodReady, type PodLike, podReadyCondition, timeOf } from './pod-state.ts';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

export interface RankOptions {
  /** The reference time of the logarithmic age buckets; the wall clock when absent. */
  now?: number;
  /** Names the pod-deletion-cost annotation; the spec's profile when absent. */
  naming?: NamingProfile;
  /** Upstream's LogarithmicScaleDown (on by default): false compares exact times. */
  logarithmicScaleDown?: boolean;
  /** Upstream's PodDeletionCost (on by default). */
  podDeletionCost?: boolean;
}

/** The pod-deletion-cost of a Pod: 0 when absent or not a 32-bit integer. */
export function deletionCostOf(pod: PodLike, annotation: string): number {
  const v = pod.metadata?.annotations?.[annotation];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n : 0;
}

/** The highest restart count among regular containers, and among sidecars (restartable init containers). */
function maxRestarts(pod: PodLike): { regular: number; sidecar: number } {
  let regular = 0;
  for (const c of pod.status?.containerStatuses ?? []) regular = Math.max(regular, c?.restartCount ?? 0);
  const sidecars = new Set(
    (pod.spec?.initContainers ?? []).filter((c) => c?.restartPolicy === 'Always').map((c) => c.name),
  );
  let sidecar = 0;
  for (const c of pod.status?.initContainerStatuses ?? [])
    if (sidecars.has(c?.name)) sidecar = Math.max(sidecar, c?.restartCount ?? 0);
  return { regular, sidecar };
}

function readyTime(pod: PodLike): number | undefined {
  const c = podReadyCondition(pod);
  return c?.status === 'True' ? timeOf(c.lastTransitionTime) : undefined;
}

/** floor(log2(age in nanoseconds)), or -1 for no age: upstream's bucket of an age. */
function ageBucket(t: number, now: number): number {
  const ageNs = (now - t) * 1e6;
  return ageNs > 0 ? Math.floor(Math.log2(ageNs)) : -1;
}

interface Ranked {
  pod: PodLike;
  rank: number;
  ready: boolean;
  cost: number;
}

/**
 * Compares two times where the newer (or an absent one) goes first. With logarithmic buckets, times
 * in the same bucket are ordered by uid. Answers 0 when the times are equal.
 */
function compareNewerFirst(
  ta: number | undefined,
  tb: number | undefined,
  a: PodLike,
  b: PodLike,
  opts: { now: number; logarithmic: boolean },
): number {
  if (ta === tb) return 0;
  if (ta === undefined || tb === undefined) return ta === undefined ? -1 : 1;
  if (opts.logarithmic) {
    const diff = ageBucket(ta, opts.now) - ageBucket(tb, opts.now);
    if (diff !== 0) return diff < 0 ? -1 : 1;
    const ua = String(a.metadata?.uid ?? '');
    const ub = String(b.metadata?.uid ?? '');
    return ua < ub ? -1 : ua > ub ? 1 : 0;
  }
  return ta > tb ? -1 : 1;
}

function compareRanked(x: Ranked, y: Ranked, opts: { now: number; logarithmic: boolean }): number {
  const a = x.pod;
  const b = y.pod;
  const na = a.spec?.nodeName ?? '';
  const nb = b.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  const pa = PHASE_ORDINAL[a.status?.phase ?? ''] ?? 0;
  const pb = PHASE_ORDINAL[b.status?.phase ?? ''] ?? 0;
  if (pa !== pb) return pa - pb;
  if (x.ready !== y.ready) return x.ready ? 1 : -1;
  if (x.cost !== y.cost) return x.cost - y.cost;
  if (x.rank !== y.rank) return y.rank - x.rank;
  if (x.ready && y.ready) {
    const c = compareNewerFirst(readyTime(a), readyTime(b), a, b, opts);
    if (c !== 0) return c;
  }
  const ra = maxRestarts(a);
  const rb = maxRestarts(b);
  if (ra.regular !== rb.regular) return rb.regular - ra.regular;
  if (ra.sidecar !== rb.sidecar) return rb.sidecar - ra.sidecar;
  const ca = timeOf(a.metadata?.creationTimestamp);
  const cb = timeOf(b.metadata?.creationTimestamp);
  return compareNewerFirst(ca, cb, a, b, opts);
}

/**
 * `pods` in the order to delete them. Each Pod's rank is the number of active `related` Pods (the
 * owner's and its siblings') on its node, so Pods that double up on a node go before lone ones.
 */
export function rankPodsForDeletion<T extends PodLike>(
  pods: readonly T[],
  related: readonly PodLike[],
  opts: RankOptions = {},
): T[] {
  const onNode = new Map<string, number>();
  for (const p of related) {
    if (!isPodActive(p)) continue;
    const node = p.spec?.nodeName ?? '';
    onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const annotation = podDeletionCostAnnotation(opts.naming ?? namingProfile('spec'));
  const withCost = opts.podDeletionCost ?? true;
  const ranked: Ranked[] = pods.map((pod) => ({
    pod,
    rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0,
    ready: isPodReady(pod),
    cost: withCost ? deletionCostOf(pod, annotation) : 0,
  }));
  const cmp = { now: opts.now ?? Date.now(), logarithmic: opts.logarithmicScaleDown ?? true };
  ranked.sort((x, y) => compareRanked(x, y, cmp));
  return ranked.map((r) => r.pod as T);
}

/**
 * The `diff` Pods to delete out of `pods` (upstream's getPodsToDelete): ranked only when some are
 * kept, since deleting all needs no order.
 */
export function podsToDelete<T extends PodLike>(
  pods: readonly T[],
  related: readonly PodLike[],
  diff: number,
  opts: RankOptions = {},
): T[] {
  if (diff >= pods.length) return [...pods];
  return rankPodsForDeletion(pods, related, opts).slice(0, diff);
}
