// apiserver_storage_objects / apiserver_resource_objects: each resource's live objects, counted by
// the backend now and then, as upstream's store does for each resource once a minute
// (`--etcd-count-metric-poll-period`). A resource is counted soon after its keys are first seen (or
// it is registered): once the request that showed it is done, so that a first write is counted,
// or within a second; then every interval. A failed count reports -1, as upstream's does.

import type { GroupResource } from './resource-of.ts';

/** Upstream's default poll period. */
export const OBJECT_COUNT_INTERVAL_MS = 60_000;

/** The longest a resource seen outside a request (by the watch cache) waits for its first count. */
const FIRST_COUNT_MS = 1_000;

export interface ObjectCounterOptions {
  /** Counts every resource's objects under its root (with a trailing slash). */
  count(root: string, gr: GroupResource): Promise<number>;
  /** Sets the result (-1 for a failed count). */
  set(gr: GroupResource, count: number): void;
  /** 0 counts only when asked (refresh) and when a resource is first seen. */
  intervalMs?: number;
}

export class ObjectCounter {
  private readonly roots = new Map<string, GroupResource>();
  private readonly timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Counts under way, so that close() and tests can wait for them. */
  private readonly running = new Set<Promise<void>>();
  /** Resources to count for the first time. */
  private pending: [string, GroupResource][] = [];
  private pendingTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ObjectCounterOptions) {
    const interval = opts.intervalMs ?? OBJECT_COUNT_INTERVAL_MS;
    if (interval > 0) {
      this.timer = setInterval(() => void this.refresh(), interval);
      this.timer.unref();
    }
  }

  /** Whether resources wait for their first count (checked after each request). */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** A resource to keep counting; first counted by countPending() or within FIRST_COUNT_MS. */
  track(root: string, gr: GroupResource): void {
    if (this.closed || this.roots.get(root) === gr || gr.resource === '') return;
    this.roots.set(root, gr);
    this.pending.push([root, gr]);
    if (this.pendingTimer === undefined) {
      this.pendingTimer = setTimeout(() => this.countPending(), FIRST_COUNT_MS);
      this.pendingTimer.unref();
    }
  }

  /** Counts the resources waiting for their first count. */
  countPending(): void {
    if (this.pendingTimer !== undefined) clearTimeout(this.pendingTimer);
    this.pendingTimer = undefined;
    const pending = this.pending;
    this.pending = [];
    for (const [root, gr] of pending) this.countOne(root, gr);
  }

  /** Counts every tracked resource now; resolves when every count has been set. */
  async refresh(): Promise<void> {
    this.pending = [];
    for (const [root, gr] of this.roots) this.countOne(root, gr);
    await this.settled();
  }

  /** Resolves once the counts under way have been set. */
  async settled(): Promise<void> {
    this.countPending();
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private countOne(root: string, gr: GroupResource): void {
    if (this.closed) return;
    let counted: Promise<number>;
    try {
      counted = this.opts.count(`${root}/`, gr);
    } catch (err) {
      // A backend that fails before answering fails the count, not its caller (a request).
      counted = Promise.reject(err);
    }
    const run = counted.then(
      (n) => {
        if (!this.closed) this.opts.set(gr, n);
      },
      () => {
        if (!this.closed) this.opts.set(gr, -1);
      },
    );
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Stops counting; counts under way finish without setting anything. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.pendingTimer !== undefined) clearTimeout(this.pendingTimer);
    this.pending = [];
    await this.settled();
  }
}
