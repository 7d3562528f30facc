// The minimal scheduler: watches the Pods no node has yet (field selector `spec.nodeName=`) that
// ask for the default scheduler, and binds each to a node chosen by scheduler-rules.ts with a core
// v1 Binding posted to the Pod's `binding` subresource. It counts the Pods each node runs from a
// second informer (assigned, not terminal) plus those it bound and has not yet seen there. A Pod
// that fits nowhere gets PodScheduled=False (reason Unschedulable) and is tried again when nodes
// or Pods change, or after its backoff. Runs with a client of its own (the scheduler's user).

import type { ApiClient, Clock, ResourceClient } from '../client/api.ts';
import type { EventRecorder } from '../client/events/recorder.ts';
import { SharedIndexInformer } from '../client/informers/shared-informer.ts';
import { realClock } from '../client/work-queue/clock.ts';
import { ItemExponentialFailureRateLimiter } from '../client/work-queue/rate-limiters.ts';
import { RateLimitingQueue } from '../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../client/work-queue/run-workers.ts';
import type { NamingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import { recordFailedScheduling, recordScheduled } from './events.ts';
import { isConflict, isNotFound, keyOf, NODES, type Node, PODS, type Pod, rfc3339 } from './objects.ts';
import { chooseNode } from './scheduler-rules.ts';

export interface SchedulerOptions {
  client: ApiClient;
  profile: NamingProfile;
  clock?: Clock;
  /** Concurrent bindings (default 4). */
  workers?: number;
  /** Where Scheduled and FailedScheduling go (none: not recorded). */
  recorder?: EventRecorder;
  onError?(err: unknown): void;
}

const BY_NODE = 'nodeName';
/** Upstream's scheduler backoff of a Pod that fits nowhere: 1 s doubling to 10 s. */
const BACKOFF_MS = { initial: 1000, max: 10_000 };

/** A Pod that fits nowhere: retried after its backoff, not reported as a failure. */
class Unschedulable extends Error {}

/** How long a Pod bound here counts on its node before the assigned-Pod informer shows it. */
const ASSUME_MS = 30_000;

export class Scheduler {
  readonly pending: SharedIndexInformer<Pod>;
  readonly assigned: SharedIndexInformer<Pod>;
  readonly nodes: SharedIndexInformer<Node>;
  readonly queue: RateLimitingQueue<string>;
  private readonly pods: ResourceClient<Pod>;
  private readonly clock: Clock;
  private readonly names: ReturnType<typeof simulatedNodeNames>;
  private readonly assumed = new Map<string, { node: string; at: number }>();
  private readonly cursor = { next: 0 };
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly o: SchedulerOptions) {
    this.clock = o.clock ?? realClock;
    this.names = simulatedNodeNames(o.profile);
    this.pods = o.client.resource<Pod>(PODS);
    const onError = (err: unknown) => this.report(err);
    this.pending = new SharedIndexInformer<Pod>(this.pods, {
      fieldSelector: 'spec.nodeName=',
      clock: this.clock,
      onError,
    });
    this.assigned = new SharedIndexInformer<Pod>(this.pods, {
      fieldSelector: 'spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed',
      clock: this.clock,
      onError,
      indexers: { [BY_NODE]: (p) => [p.spec?.nodeName ?? ''] },
    });
    this.nodes = new SharedIndexInformer<Node>(o.client.resource<Node>(NODES), {
      clock: this.clock,
      onError,
    });
    this.queue = new RateLimitingQueue<string>({
      clock: this.clock,
      rateLimiter: new ItemExponentialFailureRateLimiter<string>(BACKOFF_MS.initial, BACKOFF_MS.max),
    });
  }

  start(): void {
    const mine = (p: Pod) =>
      (p.spec?.schedulerName ?? this.names.defaultSchedulerName) === this.names.defaultSchedulerName &&
      !p.metadata?.deletionTimestamp;
    this.pending.addEventHandler({
      add: (p) => {
        if (mine(p)) this.queue.add(keyOf(p));
      },
      update: (_old, p) => {
        if (mine(p)) this.queue.add(keyOf(p));
      },
    });
    const retryAll = () => {
      for (const p of this.pending.lister.list()) if (mine(p)) this.queue.add(keyOf(p));
    };
    this.assigned.addEventHandler({
      add: (p) => this.assumed.delete(keyOf(p)),
      delete: retryAll,
    });
    this.nodes.addEventHandler({ add: retryAll, update: retryAll });
    this.pending.start();
    this.assigned.start();
    this.nodes.start();
    this.running = (async () => {
      try {
        await Promise.all([
          this.pending.waitForSync(this.abort.signal),
          this.assigned.waitForSync(this.abort.signal),
          this.nodes.waitForSync(this.abort.signal),
        ]);
      } catch {
        return;
      }
      await runWorkers(this.queue, this.o.workers ?? 4, (key) => this.schedule(key), this.abort.signal, {
        onError: (_key, err) => {
          if (!(err instanceof Unschedulable)) this.report(err);
        },
      });
    })();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.pending.stop();
    this.assigned.stop();
    this.nodes.stop();
    await this.running;
  }

  private report(err: unknown): void {
    if (!this.abort.signal.aborted) this.o.onError?.(err);
  }

  /** Pods on a node: those the informer shows there, and those bound here not yet seen. */
  podsOn(nodeName: string): number {
    return this.podCounts()(nodeName);
  }

  /**
   * Pods per node as podsOn counts them, with the bound-not-yet-seen ones tallied in one pass
   * (dropping those past ASSUME_MS): a placement asks about every node, and during a burst of
   * creations hundreds of bindings may be unseen at once.
   */
  private podCounts(): (nodeName: string) => number {
    const now = this.clock.now();
    const assumedOn = new Map<string, number>();
    for (const [key, a] of this.assumed) {
      if (now - a.at > ASSUME_MS) this.assumed.delete(key);
      else assumedOn.set(a.node, (assumedOn.get(a.node) ?? 0) + 1);
    }
    return (nodeName) =>
      this.assigned.lister.byIndex(BY_NODE, nodeName).length + (assumedOn.get(nodeName) ?? 0);
  }

  private async schedule(key: string): Promise<void> {
    const pod = this.pending.lister.get(key);
    if (pod === undefined || pod.spec?.nodeName || pod.metadata?.deletionTimestamp) return;
    if ((pod.spec?.schedulerName ?? this.names.defaultSchedulerName) !== this.names.defaultSchedulerName)
      return;
    if (this.assumed.has(key)) return;
    const choice = chooseNode(
      pod,
      this.nodes.lister.list(),
      this.podCounts(),
      this.cursor,
      this.names.unschedulableTaint,
    );
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const pods = this.pods.inNamespace(ns);
    if (choice.node === undefined) {
      recordFailedScheduling(this.o.recorder, pod, choice.message);
      await this.markUnschedulable(pod, choice.message);
      // Tried again after the queue's backoff, or sooner when a node or a Pod changes.
      throw new Unschedulable(choice.message);
    }
    const nodeName = choice.node.metadata?.name ?? '';
    this.assumed.set(key, { node: nodeName, at: this.clock.now() });
    try {
      await pods.create(
        {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name, namespace: ns, uid: pod.metadata?.uid },
          target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
        } as Pod,
        { subresource: 'binding', name },
      );
      recordScheduled(this.o.recorder, pod, nodeName);
    } catch (err) {
      this.assumed.delete(key);
      // Gone, or bound by someone else meanwhile: nothing left to do.
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }

  /** PodScheduled=False with the reasons, as upstream's scheduler reports a Pod it cannot place. */
  private async markUnschedulable(pod: Pod, message: string): Promise<void> {
    const existing = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
    if (existing?.status === 'False' && existing.reason === 'Unschedulable' && existing.message === message)
      return;
    const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message,
      lastTransitionTime:
        existing?.status === 'False' && existing.lastTransitionTime
          ? existing.lastTransitionTime
          : rfc3339(this.clock.now()),
    });
    try {
      await this.pods
        .inNamespace(pod.metadata?.namespace ?? '')
        .patch(
          pod.metadata?.name ?? '',
          'merge',
          { metadata: { uid: pod.metadata?.uid }, status: { conditions } },
          { subresource: 'status' },
        );
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }
}
