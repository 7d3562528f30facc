// The batch mode (upstream's plugin/pkg/audit/buffered): events are queued and handed on in
// batches, away from the request.
// - processEvents only queues (a copy of each event, so later changes by the pipeline do not
//   show) and returns; a full queue (bufferSize) drops the new events, counted as `buffered`
//   errors in apiserver_audit_error_total, as upstream;
// - a batch leaves when maxSize events wait, or when the oldest has waited maxWait (with maxSize
//   1, as the log's default, each event leaves on its own at once, without a timer);
// - batches pass a token bucket when throttling is on (the webhook's default: 10/s, burst 15);
// - the delegate is called in turn (the log: a synchronous write) or, with `async`, without
//   waiting for the previous batch (the webhook: each batch's send and retries run on their own);
// - shutdown refuses new events and hands every queued event on in batches, all within
//   shutdownTimeoutMs: past it, events still queued (held back by the throttle) are counted as lost
//   `buffered` events, and the delegate is shut down (which abandons what is still retrying and
//   counts it as lost).

import type { AuditBackend, AuditEvent } from '../event-types.ts';
import type { PluginErrors } from './metrics.ts';
import { TokenBucket } from './token-bucket.ts';

/** What the batch wrapper hands batches to. */
export interface BatchDelegate {
  readonly name: string;
  /** Records the batch; a promise when that takes I/O (the webhook). */
  deliver(events: AuditEvent[]): boolean | Promise<boolean>;
  shutdown(): Promise<void>;
}

export interface BufferedConfig {
  bufferSize: number;
  maxSize: number;
  maxWaitMs: number;
  throttle?: { qps: number; burst: number };
  /** Do not wait for one batch before handing on the next. */
  async: boolean;
  /** Longest shutdown waits for batches being sent before abandoning them. */
  shutdownTimeoutMs: number;
}

const PLUGIN = 'buffered';

function copyEvent(e: AuditEvent): AuditEvent {
  return e.annotations === undefined ? { ...e } : { ...e, annotations: { ...e.annotations } };
}

export class BufferedBackend implements AuditBackend {
  readonly name: string;
  private queue: AuditEvent[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The oldest queued event has waited maxWait. */
  private due = false;
  private pumping = false;
  private pumpScheduled = false;
  private stopping = false;
  private readonly throttle: TokenBucket | undefined;
  private readonly inflight = new Set<Promise<unknown>>();
  private drained: Promise<void> | undefined;
  /** Aborted when shutdown's time is up. */
  private readonly deadline = new AbortController();

  constructor(
    private readonly delegate: BatchDelegate,
    private readonly config: BufferedConfig,
    private readonly errors: PluginErrors,
  ) {
    this.name = `${PLUGIN}<${delegate.name}>`;
    if (config.throttle !== undefined)
      this.throttle = new TokenBucket(config.throttle.qps, config.throttle.burst);
  }

  private get length(): number {
    return this.queue.length - this.head;
  }

  processEvents(...events: AuditEvent[]): boolean {
    if (this.stopping) {
      this.errors.report(PLUGIN, 'audit backend shut down', events);
      return false;
    }
    for (let i = 0; i < events.length; i++) {
      if (this.length >= this.config.bufferSize) {
        this.errors.report(PLUGIN, 'audit buffer queue blocked', events.slice(i));
        break;
      }
      this.queue.push(copyEvent(events[i]));
    }
    if (this.length >= this.config.maxSize || this.config.maxSize <= 1) this.schedulePump();
    else if (this.timer === undefined && this.length > 0) this.startTimer();
    return true;
  }

  private startTimer(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.due = true;
      this.schedulePump();
    }, this.config.maxWaitMs);
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.pumping) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      void this.pump();
    });
  }

  private ready(): boolean {
    const n = this.length;
    if (n === 0) return false;
    return n >= this.config.maxSize || this.config.maxSize <= 1 || this.due || this.stopping;
  }

  /** Hands batches on while one is ready; one pump runs at a time. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.ready()) {
        if (this.throttle !== undefined) await this.throttle.take(this.deadline.signal);
        if (this.deadline.signal.aborted) {
          this.dropQueued();
          break;
        }
        const batch = this.take();
        if (batch.length === 0) continue;
        const sending = this.dispatch(batch);
        // Without `async`, the next batch waits for this one.
        if (sending !== undefined && !this.config.async) await sending;
      }
    } finally {
      this.pumping = false;
    }
    // Events that came while the last batch was taken and are not yet due wait for their timer.
    if (this.length > 0 && this.timer === undefined && !this.stopping) {
      if (this.ready()) this.schedulePump();
      else this.startTimer();
    }
  }

  /** At shutdown's deadline: what is still queued is lost. */
  private dropQueued(): void {
    const lost = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    this.errors.report(PLUGIN, 'audit backend shut down before the events could be sent', lost);
  }

  private take(): AuditEvent[] {
    const end = Math.min(this.queue.length, this.head + this.config.maxSize);
    const batch = this.queue.slice(this.head, end);
    this.head = end;
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    // The wait restarts with each batch, as upstream's timer does.
    this.due = false;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    return batch;
  }

  /** Hands a batch on; the promise of its send when that takes I/O. */
  private dispatch(batch: AuditEvent[]): Promise<unknown> | undefined {
    let result: boolean | Promise<boolean>;
    try {
      result = this.delegate.deliver(batch);
    } catch (err) {
      this.errors.report(this.delegate.name, err as Error, batch);
      return undefined;
    }
    if (typeof result === 'boolean') return undefined;
    const p: Promise<unknown> = result.catch((err: Error) =>
      this.errors.report(this.delegate.name, err, batch),
    );
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
    return p;
  }

  async shutdown(): Promise<void> {
    this.drained ??= this.drain();
    return this.drained;
  }

  private async drain(): Promise<void> {
    this.stopping = true;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const signal = this.deadline.signal;
    const timer = setTimeout(() => this.deadline.abort(), this.config.shutdownTimeoutMs);
    const timeUp = new Promise<void>((resolve) =>
      signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    // Let a running pump finish, then hand on everything left.
    while (this.pumping) await new Promise((resolve) => setImmediate(resolve));
    await this.pump();
    if (this.inflight.size > 0) await Promise.race([Promise.allSettled([...this.inflight]), timeUp]);
    clearTimeout(timer);
    await this.delegate.shutdown();
    await Promise.allSettled([...this.inflight]);
  }
}
