// The work queue's metrics, as client-go's util/workqueue/metrics.go defines what a queue records:
// adds, depth, how long items wait and how long they take, retries, and the work still in
// progress. The queue only knows the provider interface; the controller manager supplies one that
// records into its own registry (no process-wide provider, so several managers can share a
// process). A queue records only when it has a name and a provider, as upstream's unnamed queues
// record nothing.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../api.ts';
import { realClock } from './clock.ts';

export interface CounterMetric {
  inc(): void;
}

export interface GaugeMetric {
  inc(): void;
  dec(): void;
}

export interface HistogramMetric {
  /** A duration in seconds. */
  observe(seconds: number): void;
}

/** The work a queue's workers hold now: seconds summed over items, and the oldest item's. */
export interface UnfinishedWork {
  totalSeconds: number;
  oldestSeconds: number;
}

/**
 * Makes each metric of one queue name. Two queues of one name (upstream names both of the token
 * controller's queues alike) share the series the provider hands out for it.
 */
export interface WorkQueueMetricsProvider {
  newDepthMetric(name: string): GaugeMetric;
  newAddsMetric(name: string): CounterMetric;
  newLatencyMetric(name: string): HistogramMetric;
  newWorkDurationMetric(name: string): HistogramMetric;
  newRetriesMetric(name: string): CounterMetric;
  /**
   * Upstream's queues set unfinished_work_seconds and longest_running_processor_seconds from a
   * 500 ms ticker; here the provider samples every live queue when it is scraped, so an idle queue
   * arms no timer. Returns the call that stops the sampling (the queue shut down).
   */
  trackUnfinishedWork(name: string, sample: () => UnfinishedWork): () => void;
}

/** How a queue is named and metered. */
export interface QueueMetricsConfig {
  /** The queue's name, as upstream names each controller's (`replicaset`, ...); unnamed queues record nothing. */
  name?: string;
  /** Where the metrics go; the provider of the enclosing withWorkQueueMetrics() scope when absent. */
  metricsProvider?: WorkQueueMetricsProvider;
}

/**
 * The provider a manager hands its controllers while they start: queues built inside `fn` (and in
 * anything `fn` awaits) take it when they are not given one. This keeps the controllers' code to a
 * queue name, while each manager of a process still meters into its own registry.
 */
const scope = new AsyncLocalStorage<WorkQueueMetricsProvider>();

export function withWorkQueueMetrics<R>(provider: WorkQueueMetricsProvider, fn: () => R): R {
  return scope.run(provider, fn);
}

/** One named queue's recorder, as upstream's defaultQueueMetrics. */
export class QueueMetrics<T> {
  private readonly addTimes = new Map<T, number>();
  private readonly processingStarts = new Map<T, number>();
  private readonly depth: GaugeMetric;
  private readonly adds: CounterMetric;
  private readonly latency: HistogramMetric;
  private readonly workDuration: HistogramMetric;
  private readonly retries: CounterMetric | undefined;
  private readonly now: () => number;
  private untrack: (() => void) | undefined;

  constructor(name: string, provider: WorkQueueMetricsProvider, clock: Clock, withRetries: boolean) {
    // The wall clock's milliseconds are too coarse for work that takes microseconds: durations on
    // it are measured with the monotonic high-resolution timer instead.
    this.now = clock === realClock ? () => performance.now() : () => clock.now();
    this.depth = provider.newDepthMetric(name);
    this.adds = provider.newAddsMetric(name);
    this.latency = provider.newLatencyMetric(name);
    this.workDuration = provider.newWorkDurationMetric(name);
    // Only delaying queues count retries (upstream's retry metrics live in AddAfter).
    this.retries = withRetries ? provider.newRetriesMetric(name) : undefined;
    this.untrack = provider.trackUnfinishedWork(name, () => this.unfinished());
  }

  /** An item entered the dirty set (a new add, not a duplicate). */
  add(item: T): void {
    this.adds.inc();
    this.depth.inc();
    if (!this.addTimes.has(item)) this.addTimes.set(item, this.now());
  }

  /** An item was handed to a worker. */
  get(item: T): void {
    this.depth.dec();
    const now = this.now();
    this.processingStarts.set(item, now);
    const added = this.addTimes.get(item);
    if (added !== undefined) {
      this.latency.observe((now - added) / 1000);
      this.addTimes.delete(item);
    }
  }

  /** A worker finished an item. */
  done(item: T): void {
    const started = this.processingStarts.get(item);
    if (started === undefined) return;
    this.workDuration.observe((this.now() - started) / 1000);
    this.processingStarts.delete(item);
  }

  /** addAfter was called (a rate-limited retry or a delayed add). */
  retry(): void {
    this.retries?.inc();
  }

  /** The queue shut down: its unfinished work is no longer sampled (the gauges keep their last value). */
  stop(): void {
    this.untrack?.();
    this.untrack = undefined;
  }

  private unfinished(): UnfinishedWork {
    const now = this.now();
    let totalSeconds = 0;
    let oldestSeconds = 0;
    for (const started of this.processingStarts.values()) {
      const age = (now - started) / 1000;
      totalSeconds += age;
      if (age > oldestSeconds) oldestSeconds = age;
    }
    return { totalSeconds, oldestSeconds };
  }
}

/** The recorder for a queue so configured, or undefined when it records nothing. */
export function queueMetricsFor<T>(
  config: QueueMetricsConfig,
  clock: Clock,
  withRetries: boolean,
): QueueMetrics<T> | undefined {
  if (config.name === undefined || config.name === '') return undefined;
  const provider = config.metricsProvider ?? scope.getStore();
  if (provider === undefined) return undefined;
  return new QueueMetrics<T>(config.name, provider, clock, withRetries);
}
