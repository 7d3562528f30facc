// What the server holds for watch clients that do not read: bytes written to a socket that the
// client has not taken. A watcher that reads keeps its socket nearly empty; one that stops reading
// leaves up to a socket's worth of events in the process (measured: about 265 KB per watcher, so a
// thousand such watchers held 265 MB, and more as they came). Upstream's watch cache closes a
// watcher whose buffer stays full; here a watcher whose socket stays full past a stall time, or
// whose unsent bytes pass the per-watcher bound, is closed, and when full watches together would
// hold more than the total bound, those full the longest are closed to make room. A closed
// watch's client watches again from the last resourceVersion it received, as it does after any
// closed watch, and nobody else waits for it.

/** The bounds; each server has its own budget. */
export interface WatchBudgetLimits {
  /** Unsent bytes one watch may hold. */
  perWatcherBytes: number;
  /** Unsent bytes all full watches together may hold. */
  totalBytes: number;
  /** How long a watch's socket may stay full (nothing taken by its client) before it is closed. */
  stallMs: number;
}

/**
 * A client that takes nothing for 5 s while events wait for it is not reading (a socket that
 * takes anything at all drains), and its kernel buffers (about 1.4 MB a socket here) hid the
 * seconds before already. Measured with 1000 never-reading watchers beside 100 normal ones
 * (hostile bench, one run each): 10 s and 64 MiB peaked at 715 MiB, 5 s and 32 MiB at 687; both
 * closed the last of them about 32 s after they opened, as their sockets filled one by one.
 */
export const DEFAULT_WATCH_BUDGET: WatchBudgetLimits = {
  perWatcherBytes: 4 * 1024 * 1024,
  totalBytes: 32 * 1024 * 1024,
  stallMs: 5_000,
};

/** One full spell of one watch: what it holds, until its socket drains or it closes. */
export interface Hold {
  release(): void;
}

export class WatchBudget {
  private heldBytes = 0;
  /** Full spells under way, oldest first: the first to go when the total is passed. */
  private readonly holds = new Set<HoldState>();
  /** Watches closed for holding too much or stalling, for tests and metrics. */
  closed = 0;

  constructor(readonly limits: WatchBudgetLimits = DEFAULT_WATCH_BUDGET) {}

  /** Unsent bytes held by full watches now. */
  get held(): number {
    return this.heldBytes;
  }

  /**
   * A watch's socket refused more with `bytes` unsent. Returns its hold, or undefined when the
   * watch must close now (it alone holds more than a watch may); `close` is called if the hold is
   * not released within the stall time, or if it is the oldest when the total would be passed.
   * The oldest go first: a client that stopped reading stays full from then on, while one that
   * reads, only slowly for a moment (a busy machine), fills and drains, and its spells are young.
   */
  take(bytes: number, close: () => void): Hold | undefined {
    if (bytes > this.limits.perWatcherBytes) {
      this.closed++;
      return undefined;
    }
    for (const oldest of this.holds) {
      if (this.heldBytes + bytes <= this.limits.totalBytes) break;
      this.evict(oldest);
    }
    const state: HoldState = { bytes, close, timer: undefined };
    state.timer = setTimeout(() => this.evict(state), this.limits.stallMs);
    state.timer.unref();
    this.holds.add(state);
    this.heldBytes += bytes;
    return { release: () => this.release(state) };
  }

  private release(state: HoldState): void {
    if (!this.holds.delete(state)) return;
    clearTimeout(state.timer);
    this.heldBytes -= state.bytes;
  }

  private evict(state: HoldState): void {
    if (!this.holds.has(state)) return;
    this.release(state);
    this.closed++;
    state.close();
  }
}

interface HoldState {
  bytes: number;
  close: () => void;
  timer: NodeJS.Timeout | undefined;
}
