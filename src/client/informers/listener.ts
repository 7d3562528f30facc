// One handler of a shared informer (client-go's processorListener): its own queue of
// notifications, delivered in order and never re-entrantly, so a slow or failing handler neither
// blocks the informer nor the other handlers; and its own resync schedule.

import type { ApiObject } from '../../machinery/object.ts';
import type { EventHandler } from '../api.ts';

export type Notification<T> =
  | { kind: 'add'; obj: T; isInInitialList: boolean }
  | { kind: 'update'; oldObj: T; newObj: T }
  | { kind: 'delete'; obj: T };

/** Notifications delivered in one turn before yielding to I/O (a 10,000-object list is many turns). */
const BATCH = 1000;

/**
 * A period a handler asked for, as the informer grants it: 0 stays 0 (no resync), an informer that
 * does not resync (check period 0) grants none, and nothing below the informer's check period.
 */
export function grantedResyncPeriod(desiredMs: number, checkMs: number): number {
  if (desiredMs === 0) return 0;
  if (checkMs === 0) return 0;
  return Math.max(desiredMs, checkMs);
}

export class ProcessorListener<T extends ApiObject = ApiObject> {
  private pending: Notification<T>[] = [];
  private head = 0;
  private scheduled = false;
  private stopped = false;
  /** Initial-list adds queued and not yet delivered (for hasSynced). */
  private initialPending = 0;
  private nextResyncAt: number;
  /** Due for resync at the informer's last check: sync notifications go only to such listeners. */
  syncing = false;

  constructor(
    readonly handler: EventHandler<T>,
    /** The period asked for (ms), before the informer's check period is applied. */
    readonly requestedResyncMs: number,
    private resyncMs: number,
    now: number,
    private readonly upstreamSynced: () => boolean,
    private readonly onError: (err: unknown) => void,
  ) {
    this.nextResyncAt = now + resyncMs;
  }

  get resyncPeriodMs(): number {
    return this.resyncMs;
  }

  setResyncPeriod(ms: number): void {
    this.resyncMs = ms;
  }

  shouldResync(now: number): boolean {
    return this.resyncMs !== 0 && now >= this.nextResyncAt;
  }

  determineNextResync(now: number): void {
    this.nextResyncAt = now + this.resyncMs;
  }

  /** Whether the informer has synced and this handler has been given every object of the first list. */
  hasSynced(): boolean {
    return this.upstreamSynced() && this.initialPending === 0;
  }

  add(n: Notification<T>): void {
    if (this.stopped) return;
    if (n.kind === 'add' && n.isInInitialList) this.initialPending++;
    this.pending.push(n);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.drain());
    }
  }

  /** Drops what is queued; nothing more is delivered. */
  stop(): void {
    this.stopped = true;
    this.pending = [];
    this.head = 0;
  }

  private drain(): void {
    let n = 0;
    while (!this.stopped && this.head < this.pending.length && n < BATCH) {
      const next = this.pending[this.head];
      this.pending[this.head] = undefined as unknown as Notification<T>;
      this.head++;
      n++;
      this.deliver(next);
    }
    if (this.head >= this.pending.length) {
      this.pending = [];
      this.head = 0;
    }
    if (!this.stopped && this.head < this.pending.length) {
      setImmediate(() => this.drain());
      return;
    }
    this.scheduled = false;
  }

  private deliver(n: Notification<T>): void {
    try {
      switch (n.kind) {
        case 'add':
          this.handler.add?.(n.obj, n.isInInitialList);
          break;
        case 'update':
          this.handler.update?.(n.oldObj, n.newObj);
          break;
        case 'delete':
          this.handler.delete?.(n.obj);
          break;
      }
    } catch (err) {
      this.onError(err);
    } finally {
      if (n.kind === 'add' && n.isInInitialList) this.initialPending--;
    }
  }
}
