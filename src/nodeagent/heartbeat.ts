// One simulated node's presence, as upstream's agent keeps it: registers the Node (or, when it is
// already there, puts back its labels), then renews a Lease named after the node in the node-lease
// namespace every renew interval (holder the node, 40 s duration, owned by the Node), and checks the
// Node's status every status interval, writing it when it differs from what the agent would report
// or when the report interval (5 minutes) has passed since the last write.

import type { ApiClient, Clock, ClockTimer, ResourceClient, SharedInformer } from '../client/api.ts';
import { SharedIndexInformer } from '../client/informers/shared-informer.ts';
import { formatMicroTime, type Lease, leaseResource } from '../client/leader-election/lease-lock.ts';
import { realClock, sleep } from '../client/work-queue/clock.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import { nodeLabels, nodeObject, nodeStatus, nodeStatusChanged, type SimulatedNode } from './node-object.ts';
import { isConflict, isNotFound, NODES, type Node, statusCode } from './objects.ts';

export interface HeartbeatTiming {
  /** Upstream's default node lease duration. */
  leaseDurationSeconds: number;
  /** A quarter of the lease duration, as upstream renews. */
  renewIntervalMs: number;
  /** How often the status is compared (upstream's nodeStatusUpdateFrequency). */
  statusCheckMs: number;
  /** How often an unchanged status is still written (upstream's nodeStatusReportFrequency). */
  statusReportMs: number;
  /** First retry delay of a failed renewal, doubled up to the renew interval. */
  retryMs: number;
}

export const DEFAULT_HEARTBEAT_TIMING: HeartbeatTiming = {
  leaseDurationSeconds: 40,
  renewIntervalMs: 10_000,
  statusCheckMs: 10_000,
  statusReportMs: 5 * 60_000,
  retryMs: 200,
};

/** Upstream's agent waits at most this long between registration attempts. */
const REGISTER_BACKOFF_MAX_MS = 7_000;

export interface HeartbeatOptions {
  client: ApiClient;
  node: SimulatedNode;
  clock?: Clock;
  timing?: Partial<HeartbeatTiming>;
  onError?(err: unknown): void;
}

export class NodeHeartbeat {
  readonly informer: SharedIndexInformer<Node>;
  private readonly nodes: ResourceClient<Node>;
  private readonly leases: ResourceClient<Lease>;
  private readonly clock: Clock;
  private readonly timing: HeartbeatTiming;
  private lease: Lease | undefined;
  private nodeUid = '';
  private lastReport = 0;
  private leaseTimer: ClockTimer | undefined;
  private statusTimer: ClockTimer | undefined;
  private leaseRetry = 0;
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(private readonly o: HeartbeatOptions) {
    this.clock = o.clock ?? realClock;
    this.timing = { ...DEFAULT_HEARTBEAT_TIMING, ...o.timing };
    this.nodes = o.client.resource<Node>(NODES);
    const names = simulatedNodeNames(o.node.profile);
    this.leases = o.client.resource<Lease>(leaseResource(o.node.profile), names.nodeLeaseNamespace);
    this.informer = new SharedIndexInformer<Node>(this.nodes, {
      fieldSelector: `metadata.name=${o.node.name}`,
      clock: this.clock,
      onError: (err) => this.report(err),
    });
  }

  /**
   * Registers the Node, retrying failures as upstream's agent does (backoff doubling to 7 s), then
   * starts the loops. Resolves once the Node is registered, or when stopped first.
   */
  async start(): Promise<void> {
    for (
      let delay = this.timing.retryMs;
      !this.stopped;
      delay = Math.min(delay * 2, REGISTER_BACKOFF_MAX_MS)
    ) {
      try {
        await this.register();
        break;
      } catch (err) {
        this.report(err);
        await sleep(this.clock, delay, this.abort.signal);
      }
    }
    if (this.stopped) return;
    this.lastReport = this.clock.now();
    this.informer.start();
    await this.renewLease();
    this.statusTimer = this.clock.setTimer(() => void this.checkStatus(), this.timing.statusCheckMs);
  }

  get nodeInformer(): SharedInformer<Node> {
    return this.informer;
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    this.leaseTimer?.cancel();
    this.statusTimer?.cancel();
    this.informer.stop();
  }

  private report(err: unknown): void {
    if (!this.stopped) this.o.onError?.(err);
  }

  /** Creates the Node, or reconciles the labels of one registered before (a restarted agent). */
  private async register(): Promise<void> {
    const { node } = this.o;
    const now = this.clock.now();
    try {
      const created = await this.nodes.create(nodeObject(node, now));
      this.nodeUid = created.metadata?.uid ?? '';
      // A create drops status: write it through its subresource, as upstream's agent does next.
      await this.writeStatus(created.status);
      return;
    } catch (err) {
      if (statusCode(err) !== 409) throw err;
    }
    const existing = await this.nodes.get(node.name);
    this.nodeUid = existing.metadata?.uid ?? '';
    const labels = nodeLabels(node);
    const have = existing.metadata?.labels ?? {};
    if (Object.entries(labels).some(([k, v]) => have[k] !== v)) {
      await this.nodes.patch(node.name, 'merge', { metadata: { labels } });
    }
    await this.writeStatus(existing.status);
  }

  private async writeStatus(previous: Node['status']): Promise<void> {
    const status = nodeStatus(this.o.node, this.clock.now(), previous);
    await this.nodes.patch(this.o.node.name, 'merge', { status }, { subresource: 'status' });
    this.lastReport = this.clock.now();
  }

  private async checkStatus(): Promise<void> {
    if (this.stopped) return;
    try {
      const current = this.informer.lister.get(this.o.node.name);
      const desired = nodeStatus(this.o.node, this.clock.now(), current?.status);
      const due = this.clock.now() - this.lastReport >= this.timing.statusReportMs;
      if (current === undefined) {
        // Deleted under the agent: register again, as a restarted agent would.
        if (this.informer.hasSynced()) await this.register();
      } else if (due || nodeStatusChanged(current.status, desired)) {
        await this.writeStatus(current.status);
      }
    } catch (err) {
      this.report(err);
    }
    if (!this.stopped)
      this.statusTimer = this.clock.setTimer(() => void this.checkStatus(), this.timing.statusCheckMs);
  }

  private leaseObject(): Lease {
    const { name } = this.o.node;
    return {
      apiVersion: `${leaseResource(this.o.node.profile).group}/v1`,
      kind: 'Lease',
      metadata: {
        name,
        namespace: simulatedNodeNames(this.o.node.profile).nodeLeaseNamespace,
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: this.nodeUid }],
      },
      spec: {
        holderIdentity: name,
        leaseDurationSeconds: this.timing.leaseDurationSeconds,
        renewTime: formatMicroTime(this.clock.now()),
      },
    };
  }

  /** One renewal: create the Lease, or update the last one read with a new renew time. */
  private async renewLease(): Promise<void> {
    if (this.stopped) return;
    let next = this.timing.renewIntervalMs;
    try {
      await this.writeLease();
      this.leaseRetry = 0;
    } catch (err) {
      this.lease = undefined;
      this.report(err);
      this.leaseRetry = this.leaseRetry === 0 ? this.timing.retryMs : this.leaseRetry * 2;
      next = Math.min(this.leaseRetry, this.timing.renewIntervalMs);
    }
    if (!this.stopped) this.leaseTimer = this.clock.setTimer(() => void this.renewLease(), next);
  }

  private async writeLease(): Promise<void> {
    const want = this.leaseObject();
    if (this.lease === undefined) {
      try {
        this.lease = await this.leases.get(this.o.node.name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.lease = await this.leases.create(want);
        return;
      }
    }
    const owned = (this.lease.metadata?.ownerReferences ?? []).length > 0;
    try {
      this.lease = await this.leases.update({
        ...this.lease,
        metadata: {
          ...this.lease.metadata,
          ...(owned ? {} : { ownerReferences: want.metadata?.ownerReferences }),
        },
        spec: { ...this.lease.spec, ...want.spec },
      });
    } catch (err) {
      // Another writer moved it (or removed it): read it afresh on the next try.
      if (isConflict(err) || isNotFound(err)) this.lease = undefined;
      throw err;
    }
  }
}
