// The reflector's retry pacing, as client-go sets it up: 800 ms doubling to a 30 s cap, each delay
// jittered up to twice its base, and back to 800 ms when two minutes have passed since the last
// reset (apimachinery's DelayWithReset). Also the error classes the reflector decides on.

import { codeOf, isTooLargeResourceVersion, reasonOf } from '../../machinery/status.ts';
import type { Clock } from '../api.ts';

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** Each delay is base + random * jitter * base. */
  jitter: number;
  /** The sequence restarts once this long has passed since it last started. */
  resetMs: number;
}

export const REFLECTOR_BACKOFF: BackoffOptions = {
  initialMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 1,
  resetMs: 120_000,
};

export class Backoff {
  private base: number;
  private steps: number;
  private lastStart: number;

  constructor(
    private readonly opts: BackoffOptions,
    private readonly clock: Clock,
    private readonly random: () => number = Math.random,
  ) {
    this.base = opts.initialMs;
    this.steps = Math.ceil(opts.maxMs / opts.initialMs);
    this.lastStart = clock.now();
  }

  /** The next delay (ms). */
  next(): number {
    const now = this.clock.now();
    if (now - this.lastStart > this.opts.resetMs) {
      this.base = this.opts.initialMs;
      this.steps = Math.ceil(this.opts.maxMs / this.opts.initialMs);
      this.lastStart = now;
    }
    const current = this.base;
    if (this.steps > 0) {
      this.steps--;
      const next = current * this.opts.factor;
      if (next > this.opts.maxMs) {
        this.base = this.opts.maxMs;
        this.steps = 0;
      } else this.base = next;
    }
    return current + this.random() * this.opts.jitter * current;
  }
}

/** 410: the resourceVersion asked for is compacted (Expired, or the older Gone). */
export function isExpiredError(err: unknown): boolean {
  const r = reasonOf(err);
  return r === 'Expired' || r === 'Gone';
}

/** The 504 a read at a resourceVersion the server has not reached answers. */
export function isTooLargeResourceVersionError(err: unknown): boolean {
  if (isTooLargeResourceVersion(err)) return true;
  return reasonOf(err) === 'Timeout' && (err as Error).message.includes('Too large resource version');
}

function transportCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Errors after which client-go retries the same watch after a backoff instead of relisting. */
export function isRetriableWatchError(err: unknown): boolean {
  return transportCode(err) === 'ECONNREFUSED' || reasonOf(err) === 'TooManyRequests';
}

/**
 * A server that does not offer streaming lists refuses `sendInitialEvents` with a 4xx (422 Invalid
 * from upstream when WatchList is off, 400 from older servers); expiry and throttling are not refusals.
 */
export function isStreamingListRefusal(err: unknown): boolean {
  const code = codeOf(err);
  return code >= 400 && code < 500 && code !== 408 && code !== 410 && code !== 429;
}
