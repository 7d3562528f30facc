// The client-side rate limit (ClientConnectionConfiguration's qps and burst): a token bucket that
// every request waits on before it is sent, as client-go's throttle does, so a controller in a tight
// loop cannot flood the server. A watch waits for a token to start; its stream then runs unmetered.
// Waiting callers are served in arrival order by reserving tokens ahead, as golang.org/x/time/rate
// does, and a caller that gives up returns its reservation.

import type { Clock, ClockTimer } from './api.ts';
import { realClock } from './work-queue/clock.ts';

/** rest.Config's defaults, used when qps or burst is 0. */
export const DEFAULT_QPS = 5;
export const DEFAULT_BURST = 10;

export interface ClientRateLimiter {
  /** Resolves when the request may go; rejects with the signal's reason if it is aborted first. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Takes a token only if one is available now. */
  tryAcquire(): boolean;
}

/** No limit at all (a negative qps, as client-go reads it). */
export const UNLIMITED: ClientRateLimiter = {
  acquire: (signal) => (signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve()),
  tryAcquire: () => true,
};

export class TokenBucket implements ClientRateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    if (!(qps > 0) || !Number.isFinite(qps))
      throw new RangeError(`qps must be a positive number, got ${qps}`);
    if (!Number.isInteger(burst) || burst < 1)
      throw new RangeError(`burst is required to be greater than 0 when qps is set, got ${burst}`);
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Tokens now, after refilling for the time passed; negative while reservations are outstanding. */
  private refill(): void {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
      this.last = now;
    }
  }

  tryAcquire(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.refill();
    this.tokens -= 1;
    if (this.tokens >= 0) return Promise.resolve();
    const waitMs = (-this.tokens * 1000) / this.qps;
    return new Promise((resolve, reject) => {
      let timer: ClockTimer | undefined;
      const onAbort = () => {
        timer?.cancel();
        // The reservation goes back, so later callers are not held for a request never sent.
        this.refill();
        this.tokens = Math.min(this.burst, this.tokens + 1);
        reject(signal?.reason);
      };
      timer = this.clock.setTimer(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/**
 * The limiter for a client's qps and burst as client-go reads them: 0 means the default (5 and 10),
 * a negative qps means no limit.
 */
export function rateLimiterFor(qps = 0, burst = 0, clock: Clock = realClock): ClientRateLimiter {
  if (qps < 0) return UNLIMITED;
  return new TokenBucket(qps === 0 ? DEFAULT_QPS : qps, burst === 0 ? DEFAULT_BURST : burst, clock);
}
