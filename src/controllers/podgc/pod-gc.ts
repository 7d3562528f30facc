// The pod garbage collector, as upstream's podgc controller: every 20 s it force-deletes (grace 0)
//  - terminated Pods (phase neither Pending, Running nor Unknown) beyond TerminatedPodGCThreshold,
//    evicted ones first, then oldest first (name breaks ties);
//  - terminating Pods on a NotReady node carrying the out-of-service taint;
//  - Pods bound to a node that does not exist: a node missing from the informer is quarantined for
//    40 s, then read from the API, and only a 404 condemns its Pods;
//  - terminating Pods that were never scheduled.
// A Pod not yet Succeeded or Failed is first marked Failed through an apply of its status (field
// manager PodGC), with a DisruptionTarget condition when its node is gone. Uses client/ only.

import type { ApiClient, Clock, ClockTimer, SharedInformer } from '../../client/api.ts';
import { realClock } from '../../client/work-queue/clock.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { ControllerLogger } from '../controller.ts';
import { isNotFound, messageOf, nameOf, namespaceOf, PODS, waitForInformers } from '../controller-support.ts';

export const GC_CHECK_PERIOD_MS = 20_000;
export const QUARANTINE_MS = 40_000;
export const POD_GC_FIELD_MANAGER = 'PodGC';
const NODES = { group: '', version: 'v1', resource: 'nodes' };

export interface PodGCOptions {
  client: ApiClient;
  pods: SharedInformer;
  nodes: SharedInformer;
  /** Terminated Pods kept; 0 or less keeps them all. */
  terminatedPodThreshold: number;
  /** The taint key that marks a node out of service (`node.<domain>/out-of-service`). */
  outOfServiceTaintKey: string;
  log: ControllerLogger;
  clock?: Clock;
  periodMs?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const statusOf = (p: ApiObject): Obj => (isObj(p.status) ? p.status : {});
const nodeNameOf = (p: ApiObject): string => {
  const spec = isObj(p.spec) ? p.spec : {};
  return typeof spec.nodeName === 'string' ? spec.nodeName : '';
};
const phaseOf = (p: ApiObject): string => String(statusOf(p).phase ?? '');
const terminating = (p: ApiObject): boolean => p.metadata?.deletionTimestamp !== undefined;

export function isPodTerminated(p: ApiObject): boolean {
  const phase = phaseOf(p);
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

const isEvicted = (p: ApiObject): boolean => phaseOf(p) === 'Failed' && statusOf(p).reason === 'Evicted';

/** Evicted Pods first, then by creation time, then by name: the order Pods are collected in. */
export function byEvictionAndCreation(a: ApiObject, b: ApiObject): number {
  const ea = isEvicted(a);
  const eb = isEvicted(b);
  if (ea !== eb) return ea ? -1 : 1;
  const ta = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  if (ta !== tb) return ta - tb;
  return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
}

function nodeReady(node: ApiObject): boolean {
  const conditions =
    isObj(node.status) && Array.isArray(node.status.conditions) ? node.status.conditions : [];
  return conditions.some((c) => isObj(c) && c.type === 'Ready' && c.status === 'True');
}

function hasTaint(node: ApiObject, key: string): boolean {
  const taints = isObj(node.spec) && Array.isArray(node.spec.taints) ? node.spec.taints : [];
  return taints.some((t) => isObj(t) && t.key === key);
}

export interface DisruptionCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

export const NODE_GONE_CONDITION: DisruptionCondition = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'DeletionByPodGC',
  message: 'PodGC: node no longer exists',
};

export class PodGCController {
  private readonly clock: Clock;
  /** Node names missing from the informer, with when they may be checked against the API. */
  private readonly quarantine = new Map<string, number>();
  private timer: ClockTimer | undefined;
  private stopped = false;

  constructor(private readonly o: PodGCOptions) {
    this.clock = o.clock ?? realClock;
  }

  /** One pass over every rule. */
  async gc(): Promise<void> {
    const pods = this.o.pods.lister.list();
    const nodes = this.o.nodes.lister.list();
    if (this.o.terminatedPodThreshold > 0) await this.gcTerminated(pods);
    await this.gcOutOfService(pods);
    await this.gcOrphaned(pods, nodes);
    await this.gcUnscheduledTerminating(pods);
  }

  private async gcTerminated(pods: ApiObject[]): Promise<void> {
    const terminated = pods.filter(isPodTerminated);
    const excess = terminated.length - this.o.terminatedPodThreshold;
    if (excess <= 0) return;
    this.o.log.info('garbage collecting pods', { numPods: excess });
    terminated.sort(byEvictionAndCreation);
    await Promise.all(terminated.slice(0, excess).map((p) => this.forceDelete(p)));
  }

  private async gcOutOfService(pods: ApiObject[]): Promise<void> {
    const doomed = pods.filter((p) => {
      if (!terminating(p)) return false;
      const node = this.o.nodes.lister.get(nodeNameOf(p));
      return node !== undefined && !nodeReady(node) && hasTaint(node, this.o.outOfServiceTaintKey);
    });
    doomed.sort(byEvictionAndCreation);
    await Promise.all(doomed.map((p) => this.forceDelete(p)));
  }

  private async gcOrphaned(pods: ApiObject[], nodes: ApiObject[]): Promise<void> {
    const existing = new Set(nodes.map(nameOf));
    const now = this.clock.now();
    for (const p of pods) {
      const node = nodeNameOf(p);
      if (node !== '' && !existing.has(node) && !this.quarantine.has(node))
        this.quarantine.set(node, now + QUARANTINE_MS);
    }
    const deleted = new Set<string>();
    for (const [node, readyAt] of this.quarantine) {
      if (readyAt > now) continue;
      this.quarantine.delete(node);
      if (existing.has(node)) continue;
      try {
        await this.o.client.resource(NODES).get(node);
      } catch (err) {
        // Only a confirmed absence condemns the node's Pods; another failure waits for a new quarantine.
        if (isNotFound(err)) deleted.add(node);
        else this.o.log.error('error while getting node', { node, err: messageOf(err) });
      }
    }
    for (const p of pods) {
      if (!deleted.has(nodeNameOf(p))) continue;
      this.o.log.info('found orphaned Pod assigned to the Node, deleting', {
        pod: `${namespaceOf(p)}/${nameOf(p)}`,
        node: nodeNameOf(p),
      });
      await this.forceDelete(p, NODE_GONE_CONDITION);
    }
  }

  private async gcUnscheduledTerminating(pods: ApiObject[]): Promise<void> {
    for (const p of pods) {
      if (!terminating(p) || nodeNameOf(p) !== '') continue;
      await this.forceDelete(p);
    }
  }

  /** Marks the Pod Failed (with `condition`) unless it already finished, then deletes it with grace 0. */
  private async forceDelete(pod: ApiObject, condition?: DisruptionCondition): Promise<void> {
    const ns = namespaceOf(pod);
    const name = nameOf(pod);
    const pods = this.o.client.resource(PODS, ns);
    try {
      const phase = phaseOf(pod);
      if (phase !== 'Succeeded' && phase !== 'Failed') {
        const status: Obj = { phase: 'Failed' };
        if (condition !== undefined) {
          status.conditions = [
            {
              ...condition,
              lastTransitionTime: new Date(this.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
            },
          ];
        }
        await pods.apply(
          { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, status },
          { fieldManager: POD_GC_FIELD_MANAGER, force: true, subresource: 'status' },
        );
      }
      await pods.delete(name, { gracePeriodSeconds: 0 });
      this.o.log.info('force deleted pod', { pod: `${ns}/${name}` });
    } catch (err) {
      if (isNotFound(err)) return;
      this.o.log.error('deleting pod failed', { pod: `${ns}/${name}`, err: messageOf(err) });
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    await waitForInformers([this.o.pods, this.o.nodes], signal);
    const period = this.o.periodMs ?? GC_CHECK_PERIOD_MS;
    while (!signal.aborted && !this.stopped) {
      try {
        await this.gc();
      } catch (err) {
        this.o.log.error('pod garbage collection failed', { err: messageOf(err) });
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          this.timer?.cancel();
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.timer = this.clock.setTimer(done, period);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }
}
