// Where the minimal scheduler may put a Pod, and where it does: a Node fits when it is Ready, not
// unschedulable (unless the Pod tolerates the unschedulable taint), carries every label of the
// Pod's nodeSelector, has no NoSchedule or NoExecute taint the Pod does not tolerate, and has room
// under its pod capacity. Among the nodes that fit, the one running the fewest Pods wins, ties
// going round robin. A Pod that fits nowhere gets upstream's FailedScheduling message.

import type { Node, Pod, Taint, Toleration } from './objects.ts';

/** Upstream's toleration matching (ToleratesTaint). */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

export const tolerates = (pod: Pod, taint: Taint): boolean =>
  (pod.spec?.tolerations ?? []).some((t) => toleratesTaint(t, taint));

export function nodeIsReady(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function podCapacity(node: Node): number {
  const v = node.status?.allocatable?.pods ?? node.status?.capacity?.pods;
  const n = v === undefined ? Number.NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : 110;
}

/** Why `node` cannot take `pod` (one of upstream's filter messages), or undefined when it can. */
export function unfitReason(
  pod: Pod,
  node: Node,
  podsOnNode: number,
  unschedulableTaint: string,
): string | undefined {
  if (node.spec?.unschedulable && !tolerates(pod, { key: unschedulableTaint, effect: 'NoSchedule' }))
    return 'node(s) were unschedulable';
  // Upstream's filter order: NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit.
  for (const taint of node.spec?.taints ?? []) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerates(pod, taint)) return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
  }
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) {
    if (labels[k] !== v) return "node(s) didn't match Pod's node affinity/selector";
  }
  if (!nodeIsReady(node)) return 'node(s) were not ready';
  if (podsOnNode >= podCapacity(node)) return 'Too many pods';
  return undefined;
}

export type Choice = { node: Node } | { node: undefined; message: string };

/**
 * Picks a node for `pod`. `cursor` is the round-robin position, advanced on each choice, so equal
 * nodes take turns.
 */
export function chooseNode(
  pod: Pod,
  nodes: readonly Node[],
  podsOn: (nodeName: string) => number,
  cursor: { next: number },
  unschedulableTaint: string,
): Choice {
  if (nodes.length === 0) return { node: undefined, message: 'no nodes available to schedule pods' };
  const sorted = [...nodes].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  const reasons = new Map<string, number>();
  let best: Node | undefined;
  let bestCount = Number.POSITIVE_INFINITY;
  const start = cursor.next % sorted.length;
  for (let i = 0; i < sorted.length; i++) {
    const node = sorted[(start + i) % sorted.length] as Node;
    const count = podsOn(node.metadata?.name ?? '');
    const why = unfitReason(pod, node, count, unschedulableTaint);
    if (why !== undefined) {
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    } else if (count < bestCount) {
      best = node;
      bestCount = count;
    }
  }
  cursor.next = (start + 1) % sorted.length;
  if (best !== undefined) return { node: best };
  const parts = [...reasons.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([why, n]) => `${n} ${why}`);
  const total = sorted.length;
  return {
    node: undefined,
    message:
      `0/${total} nodes are available: ${parts.join(', ')}. ` +
      `preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.`,
  };
}
