// The de-duplicating work queue of client-go's util/workqueue: an item waits in the queue at most
// once however often it is added (the dirty set), and an item being processed is never handed to a
// second worker: added again meanwhile, it is queued only when its worker calls done(). This is
// what lets a controller run several workers over keys without two of them reconciling one key.
// A named queue records upstream's workqueue_* metrics through its provider (metrics.ts).

import type { Clock } from '../api.ts';
import { realClock } from './clock.ts';
import { type QueueMetrics, type QueueMetricsConfig, queueMetricsFor } from './metrics.ts';

/** What get() answers: the next item, or that the queue is shut down and empty. */
export type GetResult<T> = { item: T; shutdown: false } | { item: undefined; shutdown: true };

export interface WorkQueueConfig extends QueueMetricsConfig {
  /** Times the metrics; the wall clock when absent. */
  clock?: Clock;
}

export class WorkQueue<T> {
  /** FIFO of items to hand out; `head` avoids shifting the array. */
  private items: T[] = [];
  private head = 0;
  /** Items that need processing (queued, or re-added while processing). */
  private readonly dirty = new Set<T>();
  /** Items handed out by get() whose done() has not come yet. */
  private readonly processing = new Set<T>();
  private stopping = false;
  private draining = false;
  private readonly getters: ((r: GetResult<T>) => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  /** Undefined for a queue that records nothing, so the hot paths pay one check. */
  protected readonly metrics: QueueMetrics<T> | undefined;

  constructor(config: WorkQueueConfig = {}, withRetries = false) {
    this.metrics = queueMetricsFor<T>(config, config.clock ?? realClock, withRetries);
  }

  /** Queues `item` unless it is already waiting; ignored once shut down. */
  add(item: T): void {
    if (this.stopping) return;
    if (this.dirty.has(item)) return;
    this.metrics?.add(item);
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.push(item);
  }

  /** Items waiting to be handed out (not those in processing). */
  len(): number {
    return this.items.length - this.head;
  }

  /**
   * The next item, once there is one; `shutdown: true` once the queue is shut down and empty.
   * Every item got must be given back with done().
   */
  get(): Promise<GetResult<T>> {
    if (this.len() > 0) return Promise.resolve(this.take());
    if (this.stopping) return Promise.resolve({ item: undefined, shutdown: true });
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** Marks `item` processed; if it was added meanwhile it is queued again now. */
  done(item: T): void {
    if (!this.processing.delete(item)) return;
    this.metrics?.done(item);
    if (this.dirty.has(item)) this.push(item);
    else if (this.processing.size === 0 && this.drainWaiters.length > 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Ignores further adds; get() hands out what is queued, then answers shutdown. */
  shutDown(): void {
    this.stopping = true;
    this.draining = false;
    this.wakeGettersOnShutdown();
    this.onShutDown();
    this.metrics?.stop();
  }

  /**
   * As shutDown, and resolves once every item handed out has been marked done (upstream's
   * ShutDownWithDrain). A later plain shutDown() stops waiting.
   */
  shutDownWithDrain(): Promise<void> {
    this.stopping = true;
    this.draining = true;
    this.wakeGettersOnShutdown();
    this.onShutDown();
    this.metrics?.stop();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  shuttingDown(): boolean {
    return this.stopping;
  }

  /** Hook for subclasses that hold items elsewhere (the delaying queue's timers). */
  protected onShutDown(): void {}

  private push(item: T): void {
    const getter = this.getters.shift();
    if (getter !== undefined) {
      // A waiting worker takes the item straight away, as Go's cond.Signal would wake one.
      this.processing.add(item);
      this.dirty.delete(item);
      this.metrics?.get(item);
      getter({ item, shutdown: false });
      return;
    }
    this.items.push(item);
  }

  private take(): GetResult<T> {
    const item = this.items[this.head] as T;
    this.items[this.head] = undefined as T;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.processing.add(item);
    this.dirty.delete(item);
    this.metrics?.get(item);
    return { item, shutdown: false };
  }

  private wakeGettersOnShutdown(): void {
    // Getters wait only while the queue is empty, so every one of them now learns of the shutdown.
    const getters = this.getters.splice(0);
    for (const g of getters) g({ item: undefined, shutdown: true });
    if (!this.draining && this.drainWaiters.length > 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }
}
