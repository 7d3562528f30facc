// A Storage decorator that records each request to the backend under upstream's etcd request
// metrics (operation, group, resource; duration, count, backend failures), what lists served by
// the backend cost, and keeps the per-resource object counts. It sits under the watch cache, so it
// sees what reaches the database, as upstream's metrics sit in its etcd3 store. A request costs two
// clock reads, a key's resource looked up by its root, and additions to plain records.

import type { ApiObject } from '../../machinery/object.ts';
import { StorageError } from '../errors.ts';
import type {
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  Predicate,
  Revision,
  Storage,
  TryUpdate,
  UpdateOptions,
  WatchOptions,
  WatchStream,
} from '../interface.ts';
import { ObjectCounter } from './object-counts.ts';
import type { GroupResource, ResourceOfKey } from './resource-of.ts';
import { Op, type StorageMetrics } from './storage-metrics.ts';

export interface MeteredStorageOptions {
  /** How often object counts are refreshed; 0 only on first sight and refreshObjectCounts(). */
  objectCountIntervalMs?: number;
}

/**
 * Whether an error is the backend failing rather than an answer (not found, exists, conflict,
 * a precondition): upstream counts an error only when the etcd call itself failed. A write's
 * callbacks (tryUpdate, validateDeletion) may throw anything, so their unknown errors are answers.
 */
function backendFailed(err: unknown, callbacks: boolean): boolean {
  if (err instanceof StorageError) {
    return err.code === 'Unavailable' || err.code === 'Compacted' || err.code === 'TooLargeResourceVersion';
  }
  return !callbacks;
}

/** A predicate that counts its evaluations, keeping what stores read from the original. */
function counting(predicate: Predicate, counter: { evaluated: number }): Predicate {
  const f = (obj: ApiObject) => {
    counter.evaluated++;
    return predicate(obj);
  };
  const extra: { metadataOnly?: boolean; key?: string } = {};
  if (predicate.metadataOnly !== undefined) extra.metadataOnly = predicate.metadataOnly;
  if (predicate.key !== undefined) extra.key = predicate.key;
  return Object.assign(f, extra);
}

export class MeteredStorage implements Storage {
  private readonly counts: ObjectCounter;

  constructor(
    private readonly backend: Storage,
    private readonly metrics: StorageMetrics,
    /** Shared with the watch cache's metrics, which learn resources from every key they see. */
    readonly resources: ResourceOfKey,
    opts: MeteredStorageOptions = {},
  ) {
    this.counts = new ObjectCounter({
      intervalMs: opts.objectCountIntervalMs,
      count: (prefix, gr) => this.countFor(prefix, gr),
      set: (gr, n) => metrics.setObjectCount(gr, n),
    });
    resources.onNew = (root, gr) => this.counts.track(root, gr);
    for (const [root, gr] of resources.roots()) this.counts.track(root, gr);
    this.counts.countPending();
  }

  /** Counts every known resource's objects now (tests; the timer does it otherwise). */
  refreshObjectCounts(): Promise<void> {
    return this.counts.refresh();
  }

  /** Resolves once object counts under way have been set. */
  objectCountsSettled(): Promise<void> {
    return this.counts.settled();
  }

  private timed<T>(gr: GroupResource, op: Op, work: Promise<T>, callbacks = false): Promise<T> {
    const start = performance.now();
    return work.then(
      (value) => {
        this.metrics.record(gr, op, (performance.now() - start) / 1000, false);
        if (this.counts.hasPending) this.counts.countPending();
        return value;
      },
      (err: unknown) => {
        this.failed(gr, op, start, err, callbacks);
        throw err;
      },
    );
  }

  private failed(gr: GroupResource, op: Op, start: number, err: unknown, callbacks: boolean): void {
    this.metrics.record(gr, op, (performance.now() - start) / 1000, backendFailed(err, callbacks));
    if (err instanceof StorageError && err.code === 'CorruptObject') this.metrics.recordDecodeError(gr);
    if (this.counts.hasPending) this.counts.countPending();
  }

  create(key: string, obj: ApiObject): Promise<ApiObject> {
    return this.timed(this.resources.of(key), Op.Create, this.backend.create(key, obj));
  }

  get(key: string, opts?: GetOptions): Promise<ApiObject> {
    return this.timed(this.resources.of(key), Op.Get, this.backend.get(key, opts));
  }

  list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const gr = this.resources.of(prefix);
    // A single-object list is a get to etcd, and upstream labels it so.
    if (opts.exactKey === true) return this.timed(gr, Op.Get, this.backend.list(prefix, opts));
    const counter = { evaluated: 0 };
    const predicate = opts.predicate;
    const asked = predicate === undefined ? opts : { ...opts, predicate: counting(predicate, counter) };
    const start = performance.now();
    return this.backend.list(prefix, asked).then(
      (result) => {
        this.metrics.record(gr, Op.List, (performance.now() - start) / 1000, false);
        const returned = result.encoded?.length ?? result.items.length;
        // Every object read is tested when there is a predicate, and returned when there is none.
        const fetched = predicate === undefined ? returned : counter.evaluated;
        this.metrics.recordList(gr, fetched, counter.evaluated, returned);
        if (this.counts.hasPending) this.counts.countPending();
        return result;
      },
      (err: unknown) => {
        // Upstream records a list's cost even when it failed.
        this.metrics.recordList(gr, counter.evaluated, counter.evaluated, 0);
        this.failed(gr, Op.List, start, err, false);
        throw err;
      },
    );
  }

  guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<ApiObject> {
    return this.timed(
      this.resources.of(key),
      Op.Update,
      this.backend.guaranteedUpdate(key, tryUpdate, opts),
      true,
    );
  }

  delete(key: string, opts?: DeleteOptions): Promise<ApiObject> {
    const callbacks = opts?.validateDeletion !== undefined;
    return this.timed(this.resources.of(key), Op.Delete, this.backend.delete(key, opts), callbacks);
  }

  watch(prefix: string, opts?: WatchOptions): WatchStream {
    return this.backend.watch(prefix, opts);
  }

  currentRevision(): Promise<Revision> {
    return this.backend.currentRevision();
  }

  compact(revision: Revision): Promise<void> {
    return this.backend.compact(revision);
  }

  count(prefix: string): Promise<number> {
    return this.countFor(prefix, this.resources.of(prefix));
  }

  private countFor(prefix: string, gr: GroupResource): Promise<number> {
    return this.timed(gr, Op.ListWithCount, this.backend.count(prefix));
  }

  async close(): Promise<void> {
    await this.counts.close();
    await this.backend.close();
  }
}
