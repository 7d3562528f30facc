// The batch wrapper's throttle: client-go's token bucket (qps tokens a second, at most burst of
// them saved, starting full). take() resolves when a token is free (or
// the wait is aborted); waits queue in order.

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Milliseconds until the reserved token is due (0: now). Reserves it. */
  reserve(): number {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  /** Waits for a token; an abort ends the wait early. */
  async take(signal?: AbortSignal): Promise<void> {
    const wait = this.reserve();
    if (wait <= 0 || signal?.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, wait);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
