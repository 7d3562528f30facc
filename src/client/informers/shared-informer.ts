// The shared informer (client-go's sharedIndexInformer): one reflector fills one indexed cache,
// and every change is handed to each registered handler through its own listener. A handler added
// after start first gets an add for every cached object; objects gone across a relist are deleted
// with the last state the cache knew; an update whose resourceVersion did not change (a relist of
// an unchanged object, or a resync) reaches only handlers due for a resync. Cached objects are the
// ones received, shared with handlers and listers, and never modified.

import type { ApiObject } from '../../machinery/object.ts';
import type { Clock, ClockTimer, EventHandler, Lister, ResourceClient, SharedInformer } from '../api.ts';
import { realClock } from '../work-queue/clock.ts';
import { Indexer, type IndexFunc } from './indexer.ts';
import { objectKey } from './keys.ts';
import { grantedResyncPeriod, type Notification, ProcessorListener } from './listener.ts';
import { Reflector, type ReflectorOptions, type ReflectorSink } from './reflector.ts';

/** No handler resyncs more often than this (client-go's minimumResyncPeriod). */
export const MINIMUM_RESYNC_PERIOD_MS = 1000;

export interface SharedIndexInformerOptions<T> {
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * The resync of handlers added without one, and the informer's resync check period (ms, 0 =
   * none). With 0 no handler resyncs, whatever it asks (as upstream).
   */
  resyncPeriodMs?: number;
  indexers?: Record<string, IndexFunc<T>>;
  clock?: Clock;
  /** Told of list/watch failures, handler exceptions and index function failures. */
  onError?(err: unknown): void;
  /** Reflector tuning (page size, streaming lists, watch timeout, backoff, randomness). */
  reflector?: Omit<ReflectorOptions, 'labelSelector' | 'fieldSelector' | 'clock' | 'onError'>;
}

export interface HandlerRegistration {
  remove(): void;
  /** Whether the informer synced and this handler has received every object of the first list. */
  hasSynced(): boolean;
}

export class SharedIndexInformer<T extends ApiObject = ApiObject>
  implements SharedInformer<T>, ReflectorSink<T>
{
  readonly indexer: Indexer<T>;
  private readonly listeners = new Set<ProcessorListener<T>>();
  private readonly reflector: Reflector<T>;
  private readonly clock: Clock;
  private readonly defaultResyncMs: number;
  private resyncCheckMs: number;
  private resyncTimer: ClockTimer | undefined;
  private started = false;
  private stopped = false;
  private synced = false;
  private syncWaiters: { resolve(): void; reject(err: Error): void }[] = [];
  private controller: AbortController | undefined;
  private running: Promise<void> | undefined;

  constructor(
    readonly client: ResourceClient<T>,
    private readonly opts: SharedIndexInformerOptions<T> = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.defaultResyncMs = opts.resyncPeriodMs ?? 0;
    this.resyncCheckMs = this.defaultResyncMs;
    this.indexer = new Indexer<T>(opts.indexers);
    this.indexer.onIndexError = (name, key, err) =>
      this.report(
        new Error(
          `unable to calculate an index entry for key ${JSON.stringify(key)} on index ${JSON.stringify(name)}: ${String(err)}`,
        ),
      );
    this.reflector = new Reflector<T>(client, this, {
      ...opts.reflector,
      labelSelector: opts.labelSelector,
      fieldSelector: opts.fieldSelector,
      clock: this.clock,
      onError: (err) => this.report(err),
    });
  }

  get lister(): Lister<T> {
    return this.indexer;
  }

  addEventHandler(handler: EventHandler<T>, resyncPeriodMs?: number): HandlerRegistration {
    if (this.stopped)
      throw new Error('handler was not added to shared informer because it has stopped already');
    let period = resyncPeriodMs ?? this.defaultResyncMs;
    if (period > 0) {
      period = Math.max(period, MINIMUM_RESYNC_PERIOD_MS);
      if (period < this.resyncCheckMs) {
        if (this.started) period = this.resyncCheckMs;
        else {
          this.resyncCheckMs = period;
          for (const l of this.listeners) l.setResyncPeriod(grantedResyncPeriod(l.requestedResyncMs, period));
        }
      }
    }
    const listener = new ProcessorListener<T>(
      handler,
      period,
      grantedResyncPeriod(period, this.resyncCheckMs),
      this.clock.now(),
      () => this.synced,
      (err) => this.report(err),
    );
    this.listeners.add(listener);
    if (this.started)
      for (const obj of this.indexer.list()) listener.add({ kind: 'add', obj, isInInitialList: true });
    return {
      remove: () => {
        listener.stop();
        this.listeners.delete(listener);
      },
      hasSynced: () => listener.hasSynced(),
    };
  }

  addIndexers(indexers: Record<string, (obj: T) => string[]>): void {
    if (this.stopped) throw new Error('indexer was not added because it has stopped already');
    this.indexer.addIndexers(indexers);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    if (this.stopped) return Promise.reject(new Error('informer stopped before it synced'));
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (err: Error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      const onAbort = () => {
        this.syncWaiters = this.syncWaiters.filter((w) => w !== waiter);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.push(waiter);
    });
  }

  lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion();
  }

  /** Whether the reflector lists by streaming (false once the server refused streaming lists). */
  usesStreamingLists(): boolean {
    return this.reflector.usesStreamingLists();
  }

  /** Whether start() (or run()) has been called. */
  hasStarted(): boolean {
    return this.started;
  }

  isStopped(): boolean {
    return this.stopped;
  }

  /** Lists and watches until `signal` aborts (then the informer is stopped for good). */
  run(signal: AbortSignal): Promise<void> {
    if (this.started || this.stopped) return this.running ?? Promise.resolve();
    this.started = true;
    this.controller = new AbortController();
    const inner = this.controller.signal;
    if (signal.aborted) this.stop();
    else signal.addEventListener('abort', () => this.stop(), { once: true });
    this.running = this.reflector.run(inner);
    return this.running;
  }

  start(): void {
    void this.run(new AbortController().signal);
  }

  /** Stops the reflector, the resync timer and every handler; waiters for sync are rejected. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.controller?.abort();
    this.resyncTimer?.cancel();
    this.resyncTimer = undefined;
    for (const l of this.listeners) l.stop();
    this.listeners.clear();
    const waiters = this.syncWaiters.splice(0);
    for (const w of waiters) w.reject(new Error('informer stopped before it synced'));
  }

  /** Resolves once the reflector has returned (after stop(), or at once if never started). */
  async whenStopped(): Promise<void> {
    await this.running;
  }

  // ----- ReflectorSink

  replace(items: T[], _resourceVersion: string): void {
    if (this.stopped) return;
    const seen = new Set<string>();
    for (const obj of items) {
      const key = objectKey(obj);
      seen.add(key);
      this.upsert(obj, key);
    }
    for (const key of this.indexer.keys()) {
      if (seen.has(key)) continue;
      const last = this.indexer.delete(key);
      if (last !== undefined) this.distribute({ kind: 'delete', obj: last }, false);
    }
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w.resolve();
      this.armResync();
    }
  }

  add(obj: T): void {
    if (!this.stopped) this.upsert(obj, objectKey(obj));
  }

  update(obj: T): void {
    if (!this.stopped) this.upsert(obj, objectKey(obj));
  }

  delete(obj: T): void {
    if (this.stopped) return;
    this.indexer.delete(objectKey(obj));
    this.distribute({ kind: 'delete', obj }, false);
  }

  // ----- internals

  private upsert(obj: T, key: string): void {
    const old = this.indexer.set(obj, key);
    if (old === undefined) {
      this.distribute({ kind: 'add', obj, isInInitialList: !this.synced }, false);
      return;
    }
    const isSync = old.metadata?.resourceVersion === obj.metadata?.resourceVersion;
    this.distribute({ kind: 'update', oldObj: old, newObj: obj }, isSync);
  }

  private distribute(n: Notification<T>, isSync: boolean): void {
    for (const l of this.listeners) if (!isSync || l.syncing) l.add(n);
  }

  private armResync(): void {
    if (this.resyncCheckMs <= 0 || this.stopped) return;
    this.resyncTimer = this.clock.setTimer(() => {
      this.resyncTimer = undefined;
      this.resync();
      this.armResync();
    }, this.resyncCheckMs);
  }

  /** Sends update(obj, obj) for every cached object to each handler whose resync is due. */
  private resync(): void {
    const now = this.clock.now();
    let due = false;
    for (const l of this.listeners) {
      l.syncing = l.shouldResync(now);
      if (l.syncing) {
        due = true;
        l.determineNextResync(now);
      }
    }
    if (!due) return;
    for (const obj of this.indexer.list())
      this.distribute({ kind: 'update', oldObj: obj, newObj: obj }, true);
  }

  private report(err: unknown): void {
    try {
      this.opts.onError?.(err);
    } catch {
      // A failing reporter must not stop the informer.
    }
  }
}
