// Writes a watch stream's events to its response, gathering those that arrive close together into
// one write. Every write to a TLS socket costs a system call and a record however small it is, and a
// server with a thousand watchers of a busy collection makes a thousand writes per event: most of its
// time went there. An idle stream writes an event at once; a busy one writes at most once per
// interval, so an event waits at most that long, and a client reads fewer, larger pieces. The
// interval grows with the number of open streams, from 20 ms to 50 ms; a source may hold a waiting
// stream's events back and hand them over when its turn comes (collect). When each stream writes is
// decided by one schedule for all of them (watch-flush-schedule.ts), which keeps their writes from
// holding the event loop in long blocks.

import { PieceBuffers } from './piece-buffers.ts';
import type { Hold, WatchBudget } from './watch-budget.ts';
import { FlushSchedule, type Scheduled } from './watch-flush-schedule.ts';

/** The response side the writer needs (an http.ServerResponse or an HTTP/2 stream). */
export interface EventSink {
  /** `done` is called once the chunk has been written (or the write failed): not before. */
  write(chunk: string | Buffer, done?: () => void): boolean;
  once(event: 'drain' | 'close', f: () => void): unknown;
  off(event: 'drain' | 'close', f: () => void): unknown;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
  /** Bytes written and not yet handed to the system; without it every refused write counts as full. */
  readonly writableLength?: number;
  /**
   * The bytes that go before and after a write of `length` bytes, for a sink whose writes carry a
   * framing of their own (HTTP/1.1 chunks, chunked-socket-sink.ts): they are copied into the same
   * buffer as the events.
   */
  frame?(length: number): { head: Buffer; tail: Buffer };
}

/** How long a busy stream gathers events before writing them, at least and at most. */
export const WATCH_WRITE_INTERVAL_MS = { min: 20, max: 50 };

/**
 * Writes per second the gathering aims to keep all watch streams under: with few streams each
 * writes every 20 ms, with a thousand busy ones every 50 ms (measured on 2 cores: at 20 ms a
 * thousand streams spent the process on TLS writes, at 50 ms they delivered 2.3 times the events).
 */
const WRITES_PER_SECOND_BUDGET = 20_000;

/** Open writers, for the interval. */
let openWriters = 0;

function currentInterval(): number {
  const spread = (openWriters * 1000) / WRITES_PER_SECOND_BUDGET;
  return Math.min(WATCH_WRITE_INTERVAL_MS.max, Math.max(WATCH_WRITE_INTERVAL_MS.min, spread));
}

const NO_FRAME = { head: Buffer.alloc(0), tail: Buffer.alloc(0) };

/**
 * The most bytes of events joined into one write. A stream that fell behind holds many events, and
 * one buffer for all of them is a fresh mapping from the allocator, whose pages fault in as they
 * are filled: measured here, events were copied into 2.8 MB pieces at 0.9 GB/s, into 1 MB pieces
 * at 3.4 GB/s and into 64 KiB pieces at 7.7 GB/s.
 */
const MAX_PIECE_BYTES = 64 * 1024;

/**
 * Bytes a stream may hold in the process before it counts as full. Node refuses a write, and
 * promises a 'drain', whenever its queue passes 16 KiB, even when the system takes the bytes at
 * once; a thousand busy watchers write pieces of 14-30 KiB, so nearly every write took the full
 * path (drain listeners, a promise, a paused and resumed watch), and the further a stream fell
 * behind, the larger its pieces and the more of its writes did. A stream counts as full only
 * with a real backlog: measured with a thousand HTTP/1.1 watchers, delivery p99 fell from a median
 * of 126 ms to 88 ms over nine runs.
 */
export const FULL_QUEUED_BYTES = 64 * 1024;

/**
 * Bytes of events a stream gathers before it takes no more until its next write. A watcher that
 * fell behind (its socket was full) is handed what it missed when it resumes; taken all at once,
 * that was one write of several MB per watcher (measured: 3 MB), held in the process until the
 * client read it. Gathered a few pieces at a time, a stream whose socket takes them writes the
 * next few at once, and one that stops taking them holds no more than this.
 */
export const MAX_GATHERED_BYTES = 4 * MAX_PIECE_BYTES;

const byteLength = (c: string | Buffer) => (typeof c === 'string' ? Buffer.byteLength(c) : c.length);

/** Where the piece starting at `from` ends: within MAX_PIECE_BYTES, and at least one event. */
function pieceEnd(chunks: (string | Buffer)[], from: number): number {
  let bytes = byteLength(chunks[from]);
  let to = from + 1;
  while (to < chunks.length) {
    bytes += byteLength(chunks[to]);
    if (bytes > MAX_PIECE_BYTES) break;
    to++;
  }
  return to;
}

/** Every stream's next write, in one schedule. */
const schedule = new FlushSchedule();

/** The buffers pieces are joined in, shared by every stream and reused after each write. */
const pieces = new PieceBuffers();

export class WatchWriter implements Scheduled {
  private pending: (string | Buffer)[] = [];
  private pendingBytes = 0;
  /** Whether the source was told to hold its events because the stream gathered enough. */
  private refused = false;
  due = 0;
  slot = -1;
  private lastWrite = Number.NEGATIVE_INFINITY;
  /** Whether the socket refused more and has not drained since. */
  private isFull = false;
  private drainWaiters: (() => void)[] = [];

  private closed = false;
  /** Inside collect: pushes only queue, the write follows. */
  private collecting = false;

  /**
   * Called when the stream's turn to write comes, before it writes: a source that held its events
   * back while the stream was `waiting` pushes them now, all in one step.
   */
  collect: (() => void) | undefined;

  /** The budget's hold on this stream's unsent bytes while its socket is full. */
  private hold: Hold | undefined;

  /**
   * Called once when the stream holds more than its budget allows, or its socket stays full
   * past the stall time: the watch should end, and its connection or stream let go.
   */
  onOverflow: (() => void) | undefined;
  private overflowed = false;

  /**
   * `intervalMs` fixes the interval; by default it follows the number of open writers. With a
   * budget, the stream's unsent bytes count against it while its socket is full.
   */
  constructor(
    private readonly out: EventSink,
    private readonly intervalMs?: number,
    private readonly budget?: WatchBudget,
  ) {
    openWriters++;
  }

  /**
   * Queues an event's bytes; they go out now if the stream has been quiet for an interval (and the
   * schedule has no backlog), otherwise when the interval is up.
   */
  push(chunk: string | Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += byteLength(chunk);
    if (this.slot !== -1 || this.collecting) return;
    const now = performance.now();
    const due = this.lastWrite + (this.intervalMs ?? currentInterval());
    if (due <= now && schedule.mayWriteNow(now)) this.flush();
    else schedule.add(this, Math.max(due, now));
  }

  /**
   * Whether the stream waits for its turn to write. Whatever arrives meanwhile goes out with that
   * write, so its source may hold events back until collect() asks for them: handed over one by
   * one as they happen, a thousand watchers' events cost a walk through every watcher's objects
   * per event, where collected they cost one walk per write.
   */
  get waiting(): boolean {
    return this.slot !== -1;
  }

  /**
   * Whether the stream has gathered MAX_GATHERED_BYTES: its source should hold further events
   * until collect() asks for them, which it does right after this write if the socket takes it.
   */
  get saturated(): boolean {
    if (this.pendingBytes < MAX_GATHERED_BYTES) return false;
    this.refused = true;
    return true;
  }

  /** The schedule's call: the stream's time has come. */
  write(): void {
    if (this.collect !== undefined) {
      this.collecting = true;
      try {
        this.collect();
      } finally {
        this.collecting = false;
      }
    }
    this.flush();
  }

  /** Writes whatever is queued. */
  flush(): void {
    schedule.remove(this);
    if (this.pending.length === 0 || this.out.writableEnded || this.out.destroyed) {
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.lastWrite = performance.now();
    let accepted = true;
    for (let from = 0; from < chunks.length; ) {
      const to = pieceEnd(chunks, from);
      // One event with no framing goes as it is: its bytes are the event's own, shared.
      const written =
        to - from === 1 && this.out.frame === undefined
          ? this.out.write(chunks[from])
          : this.writeJoined(chunks, from, to);
      accepted = written && accepted;
      from = to;
    }
    if (!accepted && !this.isFull && this.backlogged()) {
      // Listened for at once: a flush from the schedule happens while nobody awaits drained(), and a
      // 'drain' heard by nobody would leave the stream waiting for one that never comes.
      this.isFull = true;
      this.out.once('drain', this.drainedOrClosed);
      this.out.once('close', this.drainedOrClosed);
      if (this.budget !== undefined) {
        this.hold = this.budget.take(this.out.writableLength ?? FULL_QUEUED_BYTES, this.overflow);
        if (this.hold === undefined) this.overflow();
      }
    }
    if (!this.isFull) this.askForMore();
  }

  /**
   * A source told to hold its events (saturated) is asked for the rest at the next slice once
   * the socket takes more: now, or when it drains. Nobody else would ask it: its events wait in
   * the watch, and no new one comes to this writer while they do.
   */
  private askForMore(): void {
    if (!this.refused || this.collect === undefined || this.closed) return;
    if (this.out.writableEnded || this.out.destroyed) return;
    this.refused = false;
    schedule.add(this, performance.now());
  }

  private readonly overflow = (): void => {
    if (this.overflowed) return;
    this.overflowed = true;
    this.onOverflow?.();
  };

  /** Whether the sink holds FULL_QUEUED_BYTES or more unsent (or cannot say how much it holds). */
  private backlogged(): boolean {
    return (this.out.writableLength ?? FULL_QUEUED_BYTES) >= FULL_QUEUED_BYTES;
  }

  /** Heard once per full spell, on 'drain' or 'close'; one function for the writer's life. */
  private readonly drainedOrClosed = (): void => {
    this.out.off('drain', this.drainedOrClosed);
    this.out.off('close', this.drainedOrClosed);
    this.isFull = false;
    this.hold?.release();
    this.hold = undefined;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
    this.askForMore();
  };

  /**
   * Writes events [from, to) as one piece, framed as the sink asks: one buffer, filled once, and
   * given back to the pool when the write is done with it.
   */
  private writeJoined(chunks: (string | Buffer)[], from: number, to: number): boolean {
    const frame = this.out.frame;
    let length = 0;
    for (let i = from; i < to; i++) length += byteLength(chunks[i]);
    const { head, tail } = frame?.(length) ?? NO_FRAME;
    const out = pieces.take(head.length + length + tail.length);
    let at = head.copy(out, 0);
    for (let i = from; i < to; i++) {
      const c = chunks[i];
      at += typeof c === 'string' ? out.write(c, at) : c.copy(out, at);
    }
    tail.copy(out, at);
    return this.out.write(out, () => pieces.release(out));
  }

  /**
   * Whether the socket refused more with a backlog of FULL_QUEUED_BYTES or more: the caller should
   * wait for drained() before pushing on.
   */
  get full(): boolean {
    return this.isFull;
  }

  /**
   * Resolves when the client has taken what was written (at once unless the socket is full): a
   * client that reads slowly leaves events in the watch's bounded queue, where the watch cache
   * notices and cuts it off, instead of in unbounded socket buffers.
   */
  drained(): Promise<void> {
    if (!this.isFull) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Leaves the schedule; call flush() first to send what is queued. */
  close(): void {
    if (!this.closed) openWriters--;
    this.closed = true;
    this.hold?.release();
    this.hold = undefined;
    schedule.remove(this);
    this.pending = [];
    this.pendingBytes = 0;
  }
}
