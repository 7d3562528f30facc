// Writes a watch stream's events to its response, gathering those that arrive close together into
// one write. Every write to a TLS socket costs a system call and a record however small it is, and a
// server with a thousand watchers of a busy collection makes a thousand writes per event: most of its
// time went there. An idle stream writes an event at once; a busy one writes at most once per
// interval, so an event waits at most that long, and a client reads fewer, larger pieces. The
// interval grows with the number of open streams, from 20 ms to 50 ms.

/** The response side the writer needs (an http.ServerResponse or an HTTP/2 stream). */
export interface EventSink {
  write(chunk: string | Buffer): boolean;
  once(event: 'drain' | 'close', f: () => void): unknown;
  off(event: 'drain' | 'close', f: () => void): unknown;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
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

export class WatchWriter {
  private pending: (string | Buffer)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = Number.NEGATIVE_INFINITY;
  /** Whether the socket refused more and has not drained since. */
  private isFull = false;
  private drainWaiters: (() => void)[] = [];

  private closed = false;

  /** `intervalMs` fixes the interval; by default it follows the number of open writers. */
  constructor(
    private readonly out: EventSink,
    private readonly intervalMs?: number,
  ) {
    openWriters++;
  }

  /** Queues an event's bytes; they go out now if the stream has been quiet for an interval. */
  push(chunk: string | Buffer): void {
    this.pending.push(chunk);
    if (this.timer !== undefined) return;
    const wait = this.lastWrite + (this.intervalMs ?? currentInterval()) - performance.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Writes whatever is queued. */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0 || this.out.writableEnded || this.out.destroyed) {
      this.pending = [];
      return;
    }
    const chunks = this.pending;
    this.pending = [];
    this.lastWrite = performance.now();
    const chunk =
      chunks.length === 1
        ? chunks[0]
        : Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
    if (!this.out.write(chunk) && !this.isFull) {
      // Listened for at once: a flush from the timer happens while nobody awaits drained(), and a
      // 'drain' heard by nobody would leave the stream waiting for one that never comes.
      this.isFull = true;
      const done = () => {
        this.out.off('drain', done);
        this.out.off('close', done);
        this.isFull = false;
        const waiters = this.drainWaiters;
        this.drainWaiters = [];
        for (const resolve of waiters) resolve();
      };
      this.out.once('drain', done);
      this.out.once('close', done);
    }
  }

  /** Whether the socket refused more: the caller should wait for drained() before pushing on. */
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

  /** Stops the timer; call flush() first to send what is queued. */
  close(): void {
    if (!this.closed) openWriters--;
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
  }
}
