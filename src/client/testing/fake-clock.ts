// A Clock that moves only when a test moves it, so delays of seconds or minutes (queue backoff,
// informer resync, lease durations) are tested without waiting. advance() lets promise
// continuations and I/O callbacks run between the timers it fires, for code that awaits.

import type { Clock, ClockTimer } from '../api.ts';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** Lets pending promise continuations (and the I/O they start in-process) run. */
export function flushAsync(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class FakeClock implements Clock {
  private current: number;
  private timers: Timer[] = [];
  private seq = 0;

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimer(fn: () => void, ms: number): ClockTimer {
    const t: Timer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(t);
    return {
      cancel: () => {
        t.cancelled = true;
        this.timers = this.timers.filter((x) => x !== t);
      },
    };
  }

  /** Timers armed and not yet fired or cancelled. */
  pendingTimers(): number {
    return this.timers.length;
  }

  /** When the earliest armed timer fires, if any. */
  nextTimerAt(): number | undefined {
    return this.earliest()?.at;
  }

  /** Moves time forward, firing every timer that falls due (in order) synchronously. */
  step(ms: number): void {
    const target = this.current + ms;
    for (let t = this.earliest(); t !== undefined && t.at <= target; t = this.earliest()) {
      this.fire(t);
    }
    this.current = target;
  }

  /**
   * Moves time forward like step(), but lets promise continuations run before and after each
   * timer, so a loop that awaits between timers arms its next one in time to be fired.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await flushAsync();
    for (let t = this.earliest(); t !== undefined && t.at <= target; t = this.earliest()) {
      this.fire(t);
      await flushAsync();
    }
    this.current = target;
    await flushAsync();
  }

  /** Jumps to the earliest timer and fires it (with continuations before and after). */
  async advanceToNextTimer(): Promise<boolean> {
    await flushAsync();
    const t = this.earliest();
    if (t === undefined) return false;
    this.fire(t);
    await flushAsync();
    return true;
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (best === undefined || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }

  private fire(t: Timer): void {
    this.timers = this.timers.filter((x) => x !== t);
    if (t.at > this.current) this.current = t.at;
    if (!t.cancelled) t.fn();
  }
}
