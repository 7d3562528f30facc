// client-go's rate-limited queue: a delaying queue whose failed items come back after the rate
// limiter's delay (addRateLimited), and whose successes reset that item's backoff (forget).

import type { Clock } from '../api.ts';
import { realClock } from './clock.ts';
import { DelayingQueue } from './delaying-queue.ts';
import type { QueueMetricsConfig } from './metrics.ts';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters.ts';

export interface RateLimitingQueueOptions<T> extends QueueMetricsConfig {
  /** Upstream's default controller limiter when absent. */
  rateLimiter?: RateLimiter<T>;
  clock?: Clock;
}

export class RateLimitingQueue<T> extends DelayingQueue<T> {
  readonly rateLimiter: RateLimiter<T>;

  constructor(opts: RateLimitingQueueOptions<T> = {}) {
    const clock = opts.clock ?? realClock;
    super(clock, { name: opts.name, metricsProvider: opts.metricsProvider });
    this.rateLimiter = opts.rateLimiter ?? defaultControllerRateLimiter<T>(clock);
  }

  /** Adds `item` once the rate limiter says it may be retried; counts one more failure. */
  addRateLimited(item: T): void {
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** The item succeeded: its next failure waits the base delay again. Does not remove it from the queue. */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}
