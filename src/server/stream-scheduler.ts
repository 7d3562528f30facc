// Handlers of one HTTP/2 connection, bounded the way Go's server bounds them since the rapid-reset
// fixes (CVE-2023-44487): at most `max` run at once, counted from start until the handler's work
// settles, not until its stream closes. A stream a client opens and resets at once frees its slot
// in the protocol's count straight away, but the work it started goes on; counting the work is
// what stops a client from starting unbounded work with streams it never reads. Requests past the
// bound wait their turn (a stream reset while waiting is dropped unstarted); a client that keeps
// more than four times the bound waiting is resetting faster than the server can read, and its
// connection is told to calm down.

/** One request's handler, started when the connection has room. */
export interface ScheduledHandler {
  start(): Promise<void> | void;
  /** Whether its stream has gone (reset or closed) while it waited: then it never starts. */
  gone(): boolean;
}

/** How many waiting handlers, per allowed running one, mark a client that resets faster than it reads. */
export const WAITING_PER_STREAM = 4;

export class StreamScheduler {
  private runningCount = 0;
  private readonly waiting: ScheduledHandler[] = [];
  private calmed = false;

  /**
   * @param max handlers that may run at once (the connection's advertised stream limit)
   * @param calm called once when the client has too many handlers waiting; it ends the connection
   */
  constructor(
    private readonly max: number,
    private readonly calm: () => void,
  ) {}

  get running(): number {
    return this.runningCount;
  }

  get queued(): number {
    return this.waiting.length;
  }

  admit(h: ScheduledHandler): void {
    if (this.calmed) return;
    if (this.runningCount < this.max) {
      this.run(h);
      return;
    }
    if (this.waiting.length > WAITING_PER_STREAM * this.max) {
      this.calmed = true;
      this.waiting.length = 0;
      this.calm();
      return;
    }
    this.waiting.push(h);
  }

  /** The connection is gone: nothing waiting will start. */
  clear(): void {
    this.calmed = true;
    this.waiting.length = 0;
  }

  private run(h: ScheduledHandler): void {
    this.runningCount++;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      this.runningCount--;
      this.startWaiting();
    };
    try {
      const work = h.start();
      if (work === undefined) finish();
      else work.then(finish, finish);
    } catch {
      finish();
    }
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.runningCount < this.max) {
      const next = this.waiting.shift() as ScheduledHandler;
      if (!next.gone()) this.run(next);
    }
  }
}
