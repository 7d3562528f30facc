// The leader elector (client-go's tools/leaderelection). It tries to acquire the Lease every
// retryPeriod (jittered by up to 1.2×); a lease held by another is taken over only once this
// elector has seen it unchanged for its leaseDurationSeconds, measured on the local clock from the
// moment the record last changed, never from the times written in it. The leader renews every
// retryPeriod, retrying for at most renewDeadline; when that passes without a renewal, leadership is
// lost. Every write is an update at the resourceVersion last seen, so two electors never both win.
// Leadership ends (the signal given to onStartedLeading aborts) before the lease is released, so a
// successor never overlaps with work still stopping here. Given metrics (metrics.ts), it reports
// leading or not under its name, and renewals that took the slow path.

import { isConflict, isNotFound } from '../../machinery/status.ts';
import type { Clock, ResourceClient } from '../api.ts';
import { realClock, sleep } from '../work-queue/clock.ts';
import {
  checkResourceLock,
  JITTER_FACTOR,
  LEASES_RESOURCE_LOCK,
  type LeaderCallbacks,
  validateLeaderElection,
} from './config.ts';
import { type LeaderElectionRecord, type Lease, LeaseLock } from './lease-lock.ts';
import type { LeaderMetrics } from './metrics.ts';

export interface LeaderElectorOptions {
  /** Leases in `resourceNamespace` (see leaseResource for the group). */
  leases: ResourceClient<Lease>;
  resourceName: string;
  /** `leases`, the only lock upstream still offers; the default. */
  resourceLock?: string;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** On cancellation, leave the Lease with an empty holder and a one-second duration. */
  releaseOnCancel?: boolean;
  callbacks: LeaderCallbacks;
  /** Names the election in errors and metrics; the resource name when absent. */
  name?: string;
  /** Where leading and slow-path renewals are reported; nowhere when absent. */
  metrics?: LeaderMetrics;
  labels?: Record<string, string>;
  clock?: Clock;
  random?: () => number;
  /** Told of failed reads and writes of the Lease and of failing callbacks. */
  onError?(err: unknown): void;
}

/** Resolves to the promise's value, or to `fallback` as soon as any signal aborts. */
function raceAbort<T>(p: Promise<T>, fallback: T, ...signals: AbortSignal[]): Promise<T> {
  if (signals.some((s) => s.aborted)) return Promise.resolve(fallback);
  return new Promise((resolve) => {
    const done = (v: T) => {
      for (const s of signals) s.removeEventListener('abort', onAbort);
      resolve(v);
    };
    const onAbort = () => done(fallback);
    for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
    p.then(done, () => done(fallback));
  });
}

export class LeaderElector {
  private readonly lock: LeaseLock;
  private readonly clock: Clock;
  private readonly random: () => number;
  private observed: LeaderElectionRecord | undefined;
  private observedRaw = '';
  private observedTime = 0;
  private reportedLeader = '';
  private running = false;

  constructor(private readonly opts: LeaderElectorOptions) {
    validateLeaderElection(opts, opts.identity, opts.callbacks ?? {});
    checkResourceLock(opts.resourceLock ?? LEASES_RESOURCE_LOCK);
    this.lock = new LeaseLock(opts.leases, opts.resourceName, opts.identity, opts.labels);
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    // Upstream reports "not leading" as soon as an elector is made.
    this.metricOff();
  }

  private get electionName(): string {
    return this.opts.name ?? this.opts.resourceName;
  }

  private metricOn(): void {
    this.opts.metrics?.on(this.electionName);
  }

  private metricOff(): void {
    this.opts.metrics?.off(this.electionName);
  }

  get identity(): string {
    return this.opts.identity;
  }

  /** The holder of the lease as last observed ('' when none). */
  getLeader(): string {
    return this.observed?.holderIdentity ?? '';
  }

  isLeader(): boolean {
    return this.getLeader() === this.opts.identity;
  }

  /**
   * For the manager's /healthz: throws when this elector believes it leads but has not renewed
   * for leaseDuration plus `maxTolerableExpiredLeaseMs` (upstream's HealthzAdaptor check).
   */
  check(maxTolerableExpiredLeaseMs: number): void {
    if (!this.isLeader()) return;
    if (this.clock.now() - this.observedTime > this.opts.leaseDurationMs + maxTolerableExpiredLeaseMs) {
      throw new Error(`failed election to renew leadership on lease ${this.electionName}`);
    }
  }

  /**
   * Acquires, leads and renews until leadership is lost or `signal` aborts; then (optionally)
   * releases and calls onStoppedLeading. Resolves when all that is done; never rejects.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (this.running) throw new Error('leader elector is already running');
    this.running = true;
    try {
      if (!(await this.acquire(signal))) return;
      this.metricOn();
      const leading = new AbortController();
      const stopLeading = () => leading.abort();
      signal.addEventListener('abort', stopLeading, { once: true });
      this.startLeading(leading.signal);
      await this.renew(signal);
      this.metricOff();
      signal.removeEventListener('abort', stopLeading);
      leading.abort();
      if (this.opts.releaseOnCancel) await this.release();
    } finally {
      this.running = false;
      try {
        this.opts.callbacks.onStoppedLeading();
      } catch (err) {
        this.report(err);
      }
    }
  }

  private startLeading(signal: AbortSignal): void {
    try {
      const r = this.opts.callbacks.onStartedLeading(signal);
      if (r instanceof Promise) r.catch((err) => this.report(err));
    } catch (err) {
      this.report(err);
    }
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal.aborted) return false;
      const ok = await raceAbort(this.tryAcquireOrRenew(), false, signal);
      this.maybeReportTransition();
      if (ok && !signal.aborted) return true;
      const period = this.opts.retryPeriodMs;
      await sleep(this.clock, period + this.random() * JITTER_FACTOR * period, signal);
    }
  }

  /** Renews every retryPeriod until a renewal deadline passes (lost) or `signal` aborts. */
  private async renew(signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) return;
      const ok = await this.renewWithinDeadline(signal);
      this.maybeReportTransition();
      if (signal.aborted) return;
      if (!ok) {
        this.report(
          new Error(`failed to renew lease ${this.lock.describe()}: timed out waiting for the condition`),
        );
        return;
      }
      await sleep(this.clock, this.opts.retryPeriodMs, signal);
    }
  }

  private async renewWithinDeadline(signal: AbortSignal): Promise<boolean> {
    const deadline = new AbortController();
    const timer = this.clock.setTimer(() => deadline.abort(), this.opts.renewDeadlineMs);
    try {
      for (;;) {
        if (signal.aborted || deadline.signal.aborted) return false;
        if (await raceAbort(this.tryAcquireOrRenew(), false, signal, deadline.signal)) return true;
        await sleep(this.clock, this.opts.retryPeriodMs, AbortSignal.any([signal, deadline.signal]));
      }
    } finally {
      timer.cancel();
    }
  }

  /** One attempt, as upstream's tryAcquireOrRenew: true when this elector holds the lease afterwards. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    const record: LeaderElectionRecord = {
      holderIdentity: this.opts.identity,
      leaseDurationSeconds: Math.floor(this.opts.leaseDurationMs / 1000),
      acquireTime: now,
      renewTime: now,
      leaderTransitions: 0,
    };
    // Fast path: the leader renews straight from what it wrote last.
    if (this.isLeader() && this.isLeaseValid(now) && this.observed !== undefined) {
      record.acquireTime = this.observed.acquireTime;
      record.leaderTransitions = this.observed.leaderTransitions;
      try {
        await this.lock.update(record);
        this.setObserved(record);
        return true;
      } catch {
        // Falls back to reading the lease, as upstream does.
      }
    }
    let old: { record: LeaderElectionRecord; raw: string };
    try {
      old = await this.lock.get();
    } catch (err) {
      if (!isNotFound(err)) {
        this.report(err);
        return false;
      }
      try {
        await this.lock.create(record);
      } catch (createErr) {
        this.report(createErr);
        return false;
      }
      this.setObserved(record);
      return true;
    }
    if (old.raw !== this.observedRaw) {
      this.setObserved(old.record);
      this.observedRaw = old.raw;
    }
    if (old.record.holderIdentity !== '' && this.isLeaseValid(now) && !this.isLeader()) return false;
    if (this.isLeader()) {
      record.acquireTime = old.record.acquireTime;
      record.leaderTransitions = old.record.leaderTransitions;
      this.opts.metrics?.slowpathExercised(this.electionName);
    } else record.leaderTransitions = old.record.leaderTransitions + 1;
    try {
      await this.lock.update(record);
    } catch (err) {
      if (!isConflict(err)) this.report(err);
      return false;
    }
    this.setObserved(record);
    return true;
  }

  /** Leaves the lease free for the next candidate (holder '', duration 1 s), if this elector still holds it. */
  private async release(): Promise<void> {
    const deadline = this.clock.now() + this.opts.renewDeadlineMs;
    while (this.clock.now() < deadline) {
      let current: LeaderElectionRecord;
      try {
        current = (await this.lock.get()).record;
      } catch (err) {
        if (!isNotFound(err)) this.report(err);
        return;
      }
      // Unlike upstream, never clear a lease another elector has taken meanwhile.
      if (!this.isLeader() || current.holderIdentity !== this.opts.identity) return;
      const now = this.clock.now();
      const released: LeaderElectionRecord = {
        holderIdentity: '',
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaderTransitions: current.leaderTransitions,
      };
      try {
        await this.lock.update(released);
        this.setObserved(released);
        return;
      } catch (err) {
        if (!isConflict(err)) {
          this.report(err);
          return;
        }
      }
    }
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + (this.observed?.leaseDurationSeconds ?? 0) * 1000 > now;
  }

  private setObserved(r: LeaderElectionRecord): void {
    this.observed = r;
    this.observedTime = this.clock.now();
  }

  private maybeReportTransition(): void {
    const holder = this.getLeader();
    if (holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    const cb = this.opts.callbacks.onNewLeader;
    if (cb === undefined) return;
    queueMicrotask(() => {
      try {
        cb(holder);
      } catch (err) {
        this.report(err);
      }
    });
  }

  private report(err: unknown): void {
    try {
      this.opts.onError?.(err);
    } catch {
      // A failing reporter must not stop the elector.
    }
  }
}
