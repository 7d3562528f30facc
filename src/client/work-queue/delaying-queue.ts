// client-go's delaying queue: addAfter(item, delay) holds an item until its time, then adds it.
// An item already waiting keeps the earlier of its two ready times. One timer is armed, for the
// earliest entry of a min-heap; shutDown cancels it and drops every waiting item. Every addAfter
// counts as a retry in a named queue's workqueue_retries_total, as upstream's does.

import type { Clock, ClockTimer } from '../api.ts';
import { realClock } from './clock.ts';
import type { QueueMetricsConfig } from './metrics.ts';
import { WorkQueue } from './queue.ts';

interface Waiting<T> {
  item: T;
  readyAt: number;
  /** Tie-break so items due at one time are added in the order they were delayed. */
  seq: number;
  /** Replaced by an earlier entry for the same item (left in the heap, skipped when popped). */
  stale: boolean;
}

export class DelayingQueue<T> extends WorkQueue<T> {
  private readonly heap: Waiting<T>[] = [];
  private readonly waiting = new Map<T, Waiting<T>>();
  private seq = 0;
  private timer: ClockTimer | undefined;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(
    protected readonly clock: Clock = realClock,
    config: QueueMetricsConfig = {},
  ) {
    super({ ...config, clock }, true);
  }

  /** Adds `item` after `delayMs` (at once when it is 0 or less); ignored once shut down. */
  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown()) return;
    this.metrics?.retry();
    if (!(delayMs > 0)) {
      this.add(item);
      return;
    }
    const readyAt = this.clock.now() + delayMs;
    const known = this.waiting.get(item);
    if (known !== undefined) {
      if (known.readyAt <= readyAt) return;
      known.stale = true;
    }
    const entry: Waiting<T> = { item, readyAt, seq: this.seq++, stale: false };
    this.waiting.set(item, entry);
    this.heapPush(entry);
    this.arm();
  }

  /** Items waiting for their time (for tests and metrics). */
  waitingLen(): number {
    return this.waiting.size;
  }

  protected override onShutDown(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.heap.length = 0;
    this.waiting.clear();
  }

  private arm(): void {
    const first = this.peek();
    if (first === undefined) return;
    if (this.timer !== undefined && this.timerAt <= first.readyAt) return;
    this.timer?.cancel();
    this.timerAt = first.readyAt;
    this.timer = this.clock.setTimer(() => this.fire(), first.readyAt - this.clock.now());
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    for (let first = this.peek(); first !== undefined && first.readyAt <= now; first = this.peek()) {
      this.heapPop();
      this.waiting.delete(first.item);
      this.add(first.item);
    }
    this.arm();
  }

  /** The earliest live entry, dropping stale ones on the way. */
  private peek(): Waiting<T> | undefined {
    while (this.heap.length > 0 && this.heap[0].stale) this.heapPop();
    return this.heap[0];
  }

  private before(a: Waiting<T>, b: Waiting<T>): boolean {
    return a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq);
  }

  private heapPush(e: Waiting<T>): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private heapPop(): void {
    const h = this.heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.before(h[l], h[m])) m = l;
      if (r < h.length && this.before(h[r], h[m])) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}
