// When each busy watch stream writes next: one schedule for every stream of the process, kept as a
// heap by due time, served by one timer (a timer per stream cost a thousand timers per interval),
// and worked through in slices of bounded duration. With a timer per stream, the streams that a
// fan-out had written together came due together, and their writes ran as one block of the event
// loop for as long as they took. Between slices the loop reads sockets and finishes storage work.
// Slices are not short: measured with a thousand HTTP/1.1 watchers on two cores, slices of 4 ms
// (or 32 writes) let the writes fall seconds behind in the first seconds of load, while 16 ms kept
// pace as well as unbounded blocks did. A slice is cut to 2 ms, though, while storage work that a
// client waits for finishes through the loop (storage/awaited.ts): a write's commit, its sync and
// its watch event each waited a whole slice. Measured with a thousand HTTP/1.1 watchers over nine
// runs, the time from a write's start to its event reaching the watch cache fell from a median p99
// of 45 ms to 19 ms, and to its event being written to the watchers from 85 ms to 66 ms.

import { storageWorkAwaited } from '../../storage/index.ts';

/** What the schedule asks of a stream. */
export interface Scheduled {
  /** When the stream may write (performance.now() milliseconds). */
  due: number;
  /** Its place in the heap, or -1 when not scheduled. */
  slot: number;
  /** Writes what the stream holds. */
  write(): void;
}

/** How long one slice may write: it ends after the write that passes this. */
export const SLICE_MS = 16;

/** How long a slice may write while storage work that a client waits for is under way. */
export const AWAITED_SLICE_MS = 2;

/**
 * Writes made at once (by push, outside a slice) in one turn of the loop: one event reaching a
 * thousand idle streams writes this many in the fan-out's own step, and the rest in slices.
 */
export const IMMEDIATE_WRITES_PER_TURN = 32;

export class FlushSchedule {
  private readonly heap: Scheduled[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private sliceQueued = false;
  /** Writes made at once (not from a slice) since the loop last reached the check phase. */
  private immediateWrites = 0;
  private resetQueued = false;

  constructor(
    private readonly sliceMs = SLICE_MS,
    private readonly immediatePerTurn = IMMEDIATE_WRITES_PER_TURN,
    /** Whether something waits on the loop, so that the slice should end after awaitedSliceMs. */
    private readonly awaited: () => boolean = storageWorkAwaited,
    private readonly awaitedSliceMs = AWAITED_SLICE_MS,
  ) {}

  /** Streams waiting to write. */
  get size(): number {
    return this.heap.length;
  }

  /**
   * Whether a stream that is due now may write at once rather than in the next slice: only while
   * nothing else is due and this turn of the loop has not used up a slice's worth of such writes,
   * so that one event reaching a thousand idle streams does not write them all in one block.
   */
  mayWriteNow(now: number): boolean {
    const head = this.heap[0];
    if (head !== undefined && head.due <= now) return false;
    if (this.immediateWrites >= this.immediatePerTurn) return false;
    this.immediateWrites++;
    if (!this.resetQueued) {
      this.resetQueued = true;
      setImmediate(() => {
        this.resetQueued = false;
        this.immediateWrites = 0;
      });
    }
    return true;
  }

  add(s: Scheduled, due: number): void {
    if (s.slot !== -1) this.remove(s);
    s.due = due;
    s.slot = this.heap.length;
    this.heap.push(s);
    this.up(s.slot);
    this.arm();
  }

  remove(s: Scheduled): void {
    const at = s.slot;
    if (at === -1) return;
    s.slot = -1;
    const last = this.heap.pop() as Scheduled;
    if (at === this.heap.length) return;
    this.heap[at] = last;
    last.slot = at;
    this.down(at);
    this.up(last.slot);
  }

  /** Writes up to a slice of the streams that are due, then waits for the loop or the next due. */
  private readonly run = (): void => {
    this.sliceQueued = false;
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const start = performance.now();
    // A timer may fire a fraction of a millisecond before the due time it was set for.
    const now = start + 1;
    for (;;) {
      const head = this.heap[0];
      if (head === undefined || head.due > now) break;
      this.remove(head);
      head.write();
      const elapsed = performance.now() - start;
      if (elapsed >= this.sliceMs || (elapsed >= this.awaitedSliceMs && this.awaited())) break;
    }
    this.arm();
  };

  private arm(): void {
    if (this.sliceQueued) return;
    const head = this.heap[0];
    if (head === undefined) {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      return;
    }
    const wait = head.due - performance.now();
    if (wait <= 0) {
      // The next slice after the loop has polled: sockets are read in between.
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.sliceQueued = true;
      setImmediate(this.run);
      return;
    }
    if (head.due >= this.timerAt) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = head.due;
    this.timer = setTimeout(this.run, wait);
  }

  private up(i: number): void {
    const h = this.heap;
    const s = h[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p].due <= s.due) break;
      h[i] = h[p];
      h[i].slot = i;
      i = p;
    }
    h[i] = s;
    s.slot = i;
  }

  private down(i: number): void {
    const h = this.heap;
    const s = h[i];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && h[r].due < h[l].due ? r : l;
      if (h[c].due >= s.due) break;
      h[i] = h[c];
      h[i].slot = i;
      i = c;
    }
    h[i] = s;
    s.slot = i;
  }
}
