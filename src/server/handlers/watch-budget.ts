// What the server holds for watch clients that do not read: bytes written to a socket that the
// client has not taken. A watcher that reads keeps its socket nearly empty; one that stops reading
// leaves up to a socket's worth of events in the process (measured: about 265 KB per watcher, so a
// thousand such watchers held 265 MB, and more as they came). Upstream's watch cache closes a
// watcher whose buffer stays full; here a watcher whose socket stays full past a stall time, or
// whose unsent bytes pass the per-watcher bound, or that fills its socket while all watchers
// together hold the total bound, is closed. Its client watches again from the last
// resourceVersion it received, as it does after any closed watch, and nobody else waits for it.

/** The bounds; each server has its own budget. */
export interface WatchBudgetLimits {
  /** Unsent bytes one watch may hold. */
  perWatcherBytes: number;
  /** Unsent bytes all full watches together may hold. */
  totalBytes: number;
  /** How long a watch's socket may stay full (nothing taken by its client) before it is closed. */
  stallMs: number;
}

export const DEFAULT_WATCH_BUDGET: WatchBudgetLimits = {
  perWatcherBytes: 4 * 1024 * 1024,
  totalBytes: 64 * 1024 * 1024,
  stallMs: 10_000,
};

/** One full spell of one watch: what it holds, until its socket drains or it closes. */
export interface Hold {
  release(): void;
}

export class WatchBudget {
  private heldBytes = 0;
  /** Watches closed for holding too much or stalling, for tests and metrics. */
  closed = 0;

  constructor(readonly limits: WatchBudgetLimits = DEFAULT_WATCH_BUDGET) {}

  /** Unsent bytes held by full watches now. */
  get held(): number {
    return this.heldBytes;
  }

  /**
   * A watch's socket refused more with `bytes` unsent. Returns its hold, or undefined when the
   * watch must close now; `stalled` is called if the hold is not released within the stall time.
   */
  take(bytes: number, stalled: () => void): Hold | undefined {
    if (bytes > this.limits.perWatcherBytes || this.heldBytes + bytes > this.limits.totalBytes) {
      this.closed++;
      return undefined;
    }
    this.heldBytes += bytes;
    let released = false;
    const timer = setTimeout(() => {
      if (released) return;
      this.closed++;
      stalled();
    }, this.limits.stallMs);
    timer.unref();
    return {
      release: () => {
        if (released) return;
        released = true;
        clearTimeout(timer);
        this.heldBytes -= bytes;
      },
    };
  }
}
