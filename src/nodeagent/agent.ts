// One simulated node agent's Pods: watches the Pods bound to its node (field selector
// `spec.nodeName=<node>`) and plays their lives through the `status` subresource. A new Pod gets an
// address from the node's /24 and goes straight to Running (init containers completed, containers
// running, readiness after each probe's initialDelaySeconds). A Pod whose restartPolicy lets it
// complete finishes when the simulated-exit-code annotation asks. A Pod being deleted is stopped
// after a short simulated stop (never the whole grace period), its containers terminated, and then
// deleted with gracePeriodSeconds 0, as upstream's agent does once its containers are gone.

import type { ApiClient, Clock, ResourceClient } from '../client/api.ts';
import { SharedIndexInformer } from '../client/informers/shared-informer.ts';
import { realClock } from '../client/work-queue/clock.ts';
import { RateLimitingQueue } from '../client/work-queue/rate-limiting-queue.ts';
import { runWorkers } from '../client/work-queue/run-workers.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import type { PodEvents } from './events.ts';
import { ipv4, nodeAddress, podSubnet, type SimulatedNode } from './node-object.ts';
import { isConflict, isNotFound, keyOf, PODS, type Pod, type PodStatus } from './objects.ts';
import { isTerminal, nextChangeAt, type PodRuntime, runningStatus, terminalStatus } from './pod-status.ts';

export interface NodeAgentOptions {
  client: ApiClient;
  node: SimulatedNode;
  clock?: Clock;
  /** How long a deleted Pod's containers take to stop (default 500 ms, never past its grace period). */
  stopDelayMs?: number;
  /** Pods worked on at once (default 4). */
  workers?: number;
  /** Records the Pods' container Events (none: not recorded). */
  events?: PodEvents;
  onError?(err: unknown): void;
}

interface Tracked extends PodRuntime {
  /** The status last written, to write only changes. */
  written?: string;
  /** When a deleted Pod's containers have stopped (ms). */
  stopAt?: number;
}

/** Host numbers .2 to .254 of the node's /24. */
const FIRST_HOST = 2;
const LAST_HOST = 254;

export class NodeAgent {
  readonly informer: SharedIndexInformer<Pod>;
  readonly queue: RateLimitingQueue<string>;
  private readonly pods: ResourceClient<Pod>;
  private readonly clock: Clock;
  private readonly tracked = new Map<string, Tracked>();
  private readonly usedHosts = new Set<number>();
  private readonly subnet: number;
  private readonly hostIP: string;
  private readonly exitAnnotation: string;
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly o: NodeAgentOptions) {
    this.clock = o.clock ?? realClock;
    this.pods = o.client.resource<Pod>(PODS);
    this.subnet = podSubnet(o.node.index).base;
    this.hostIP = nodeAddress(o.node.index);
    this.exitAnnotation = simulatedNodeNames(o.node.profile).simulatedExitCodeAnnotation;
    this.informer = new SharedIndexInformer<Pod>(this.pods, {
      fieldSelector: `spec.nodeName=${o.node.name}`,
      clock: this.clock,
      onError: (err) => this.report(err),
    });
    this.queue = new RateLimitingQueue<string>({ clock: this.clock });
  }

  start(): void {
    const enqueue = (p: Pod) => this.queue.add(keyOf(p));
    this.informer.addEventHandler({ add: enqueue, update: (_o, p) => enqueue(p), delete: enqueue });
    this.informer.start();
    this.running = (async () => {
      try {
        await this.informer.waitForSync(this.abort.signal);
      } catch {
        return;
      }
      await runWorkers(this.queue, this.o.workers ?? 4, (key) => this.sync(key), this.abort.signal, {
        onError: (_key, err) => this.report(err),
      });
    })();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.informer.stop();
    await this.running;
  }

  private report(err: unknown): void {
    if (!this.abort.signal.aborted) this.o.onError?.(err);
  }

  /** The Pods this agent runs now (for tests and the handle). */
  runningPods(): number {
    return this.tracked.size;
  }

  private forget(key: string): void {
    const t = this.tracked.get(key);
    if (t === undefined) return;
    this.usedHosts.delete(this.hostOf(t.podIP));
    this.tracked.delete(key);
  }

  private hostOf(ip: string): number {
    const parts = ip.split('.').map(Number);
    const n =
      (((parts[0] ?? 0) << 24) >>> 0) + ((parts[1] ?? 0) << 16) + ((parts[2] ?? 0) << 8) + (parts[3] ?? 0);
    return n - this.subnet;
  }

  /** A free address of the node's /24; a restarted agent keeps the one the Pod reports. */
  private allocate(pod: Pod): string {
    const reported = pod.status?.podIP;
    if (reported !== undefined) {
      const host = this.hostOf(reported);
      if (host >= FIRST_HOST && host <= LAST_HOST && !this.usedHosts.has(host)) {
        this.usedHosts.add(host);
        return reported;
      }
    }
    for (let h = FIRST_HOST; h <= LAST_HOST; h++) {
      if (!this.usedHosts.has(h)) {
        this.usedHosts.add(h);
        return ipv4(this.subnet + h);
      }
    }
    // More Pods than a /24 holds (past the node's pod capacity): share the last address.
    return ipv4(this.subnet + LAST_HOST);
  }

  private runtimeFor(key: string, pod: Pod): Tracked {
    const uid = pod.metadata?.uid ?? '';
    const known = this.tracked.get(key);
    if (known !== undefined && known.uid === uid) return known;
    if (known !== undefined) this.forget(key);
    const reportedStart = pod.status?.startTime ? Date.parse(pod.status.startTime) : Number.NaN;
    const t: Tracked = {
      uid,
      startedAt: Number.isFinite(reportedStart) ? reportedStart : this.clock.now(),
      podIP: this.allocate(pod),
      hostIP: this.hostIP,
    };
    this.tracked.set(key, t);
    return t;
  }

  private async sync(key: string): Promise<void> {
    const pod = this.informer.lister.get(key);
    if (pod === undefined) {
      this.forget(key);
      return;
    }
    const t = this.runtimeFor(key, pod);
    const now = this.clock.now();
    if (pod.metadata?.deletionTimestamp) {
      this.o.events?.stopping(pod, t);
      await this.stopPod(key, pod, t, now);
      return;
    }
    if (isTerminal(pod)) return;
    this.o.events?.starting(pod, t);
    const exit = this.exitCode(pod);
    if (exit !== undefined) {
      await this.writeStatus(pod, t, terminalStatus(pod, t, exit, now));
      return;
    }
    await this.writeStatus(pod, t, runningStatus(pod, t, now));
    const next = nextChangeAt(pod, t, now);
    if (next !== undefined) this.queue.addAfter(key, next - now);
  }

  /** The exit code asked for, when the Pod's restartPolicy lets it complete. */
  private exitCode(pod: Pod): number | undefined {
    if ((pod.spec?.restartPolicy ?? 'Always') === 'Always') return undefined;
    const v = pod.metadata?.annotations?.[this.exitAnnotation];
    if (v === undefined || !/^-?[0-9]{1,10}$/.test(v.trim())) return undefined;
    const n = Number(v.trim());
    return n >= -(2 ** 31) && n < 2 ** 31 ? n : undefined;
  }

  private async stopPod(key: string, pod: Pod, t: Tracked, now: number): Promise<void> {
    if (t.stopAt === undefined) {
      const graceMs = (pod.metadata?.deletionGracePeriodSeconds ?? 30) * 1000;
      t.stopAt = now + Math.min(this.o.stopDelayMs ?? 500, graceMs);
    }
    if (now < t.stopAt) {
      this.queue.addAfter(key, t.stopAt - now);
      return;
    }
    if (pod.status?.phase === 'Running') {
      // Its containers were asked to stop and did, cleanly.
      await this.writeStatus(pod, t, terminalStatus(pod, t, 0, now));
    }
    try {
      await this.pods.inNamespace(pod.metadata?.namespace).delete(pod.metadata?.name ?? '', {
        gracePeriodSeconds: 0,
        preconditions: { uid: t.uid },
      });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  private async writeStatus(pod: Pod, t: Tracked, status: PodStatus): Promise<void> {
    const text = JSON.stringify(status);
    if (t.written === text && pod.status?.phase === status.phase) return;
    try {
      await this.pods
        .inNamespace(pod.metadata?.namespace)
        .patch(
          pod.metadata?.name ?? '',
          'merge',
          { metadata: { uid: t.uid }, status },
          { subresource: 'status' },
        );
      t.written = text;
    } catch (err) {
      // Deleted meanwhile, or replaced by a Pod of the same name: the watch brings what is next.
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }
}
