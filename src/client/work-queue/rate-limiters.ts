// client-go's workqueue rate limiters: how long an item waits before it is retried. The per-item
// exponential limiter doubles from 5 ms to at most 1000 s per failure of that item; the token
// bucket (10 per second, burst 100) bounds retries of all items together; the default controller
// limiter is the larger of the two, as upstream's DefaultTypedControllerRateLimiter.

import type { Clock } from '../api.ts';
import { realClock } from './clock.ts';

export interface RateLimiter<T> {
  /** How long (ms) `item` should wait now; each call counts as one more failure. */
  when(item: T): number;
  /** Stops tracking `item` (it succeeded): its next failure starts from the base delay again. */
  forget(item: T): void;
  /** Failures counted for `item` since it was last forgotten. */
  numRequeues(item: T): number;
}

export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    private readonly baseDelayMs: number,
    private readonly maxDelayMs: number,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * 2 ** exp;
    // Past a few dozen doublings the product is Infinity; the cap covers that too.
    return Math.min(backoff, this.maxDelayMs);
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * A token bucket over every item (golang.org/x/time/rate's reservation): it starts full with
 * `burst` tokens and refills at `qps`; each when() takes one token and waits for it if the bucket
 * is in debt. It tracks no item, so forget and numRequeues do nothing.
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  when(_item: T): number {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.last);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.qps) / 1000);
    this.last = Math.max(this.last, now);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest wait of several limiters; numRequeues is the largest count among them. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let longest = 0;
    for (const l of this.limiters) longest = Math.max(longest, l.when(item));
    return longest;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    let most = 0;
    for (const l of this.limiters) most = Math.max(most, l.numRequeues(item));
    return most;
  }
}

export const DEFAULT_ITEM_BASE_DELAY_MS = 5;
export const DEFAULT_ITEM_MAX_DELAY_MS = 1000 * 1000;
export const DEFAULT_BUCKET_QPS = 10;
export const DEFAULT_BUCKET_BURST = 100;

/** Upstream's default for controllers: per-item exponential (5 ms to 1000 s) and 10 qps, burst 100. */
export function defaultControllerRateLimiter<T>(clock: Clock = realClock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(DEFAULT_ITEM_BASE_DELAY_MS, DEFAULT_ITEM_MAX_DELAY_MS),
    new BucketRateLimiter<T>(DEFAULT_BUCKET_QPS, DEFAULT_BUCKET_BURST, clock),
  );
}
