// A controller's work queue, shared by the garbage collector and the clusterrole-aggregation
// controller: keys wait once however often they are added, and are handled one at a time in the
// order they came; a key whose handling throws is reported and added again after a pause. idle()
// resolves once nothing is queued, in progress or waiting for its retry (tests wait on it); stop()
// drops the queued keys and pending retries and wakes whoever waits for idle.

/** The pause before a failed key is handled again. */
const RETRY_MS = 250;

export class WorkQueue {
  private readonly queue = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private working = false;
  private halted = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly handle: (key: string) => Promise<void>,
    /** Told of each failure before its retry is scheduled. */
    private readonly onError: (key: string, err: Error) => void,
  ) {}

  get stopped(): boolean {
    return this.halted;
  }

  add(key: string): void {
    if (this.halted) return;
    this.queue.add(key);
    if (!this.working) void this.drain();
  }

  stop(): void {
    this.halted = true;
    for (const t of this.timers) clearTimeout(t);
    this.queue.clear();
    this.settle();
  }

  /** Resolves once nothing is queued or in progress. */
  idle(): Promise<void> {
    if (!this.working && this.queue.size === 0 && this.timers.size === 0) return Promise.resolve();
    return new Promise((res) => this.idleWaiters.push(res));
  }

  private async drain(): Promise<void> {
    this.working = true;
    while (this.queue.size > 0 && !this.halted) {
      const key = this.queue.values().next().value as string;
      this.queue.delete(key);
      try {
        await this.handle(key);
      } catch (err) {
        this.onError(key, err as Error);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.add(key);
          this.settle();
        }, RETRY_MS);
        this.timers.add(timer);
      }
    }
    this.working = false;
    this.settle();
  }

  private settle(): void {
    if (this.working || this.queue.size > 0 || (this.timers.size > 0 && !this.halted)) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
