// The distributed backend: the Storage contract on etcd v3. Keys live under a prefix (default
// /registry), values are the objects' JSON, and the resourceVersion is etcd's mod revision.
// Writes are transactions that compare the key's mod revision, so etcd itself arbitrates races.
// Watches use the raw gRPC watch stream, because the client library's watcher reconnects quietly
// and hides compaction, which clients must see as 410.

import etcd3 from 'etcd3';
import type { ApiObject } from '../../machinery/object.ts';
import { storageWorkBegins } from '../awaited.ts';
import { decodeContinue, encodeContinue } from '../continue-token.ts';
import {
  CompactedError,
  InvalidContinueError,
  InvalidObjectError,
  KeyExistsError,
  KeyNotFoundError,
  TooLargeResourceVersionError,
  UnavailableError,
} from '../errors.ts';
import type {
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  ReadAt,
  Revision,
  Storage,
  TryUpdate,
  UpdateOptions,
  WatchOptions,
  WatchStream,
} from '../interface.ts';
import { checkPreconditions } from '../preconditions.ts';
import { assertCorrupt, bookmarkObject, decodeValue, encodeValue } from '../value-codec.ts';
import { filteredEventType, prefixEnd, WatchQueue } from '../watch-queue.ts';

type IKeyValue = etcd3.IKeyValue;
type IWatchResponse = etcd3.IWatchResponse;

export interface EtcdStorageOptions {
  endpoints: string[];
  /** Prefix of every key in etcd. Default `/registry`. */
  prefix?: string;
}

/** Keys read per range request; values may be large, so the gRPC receive limit is lifted too. */
const RANGE_CHUNK = 500;

function isCompacted(err: unknown): boolean {
  return err instanceof Error && /required revision has been compacted/.test(err.message);
}

function isFutureRevision(err: unknown): boolean {
  return err instanceof Error && /required revision is a future revision/.test(err.message);
}

export class EtcdStorage implements Storage {
  private readonly client: etcd3.Etcd3;
  private readonly prefix: string;
  private readonly watches = new Set<WatchQueue>();
  /** Highest compaction this process asked for; etcd's errors do not name the compact revision. */
  private compacted = 0;
  private closed = false;

  constructor(opts: EtcdStorageOptions) {
    this.prefix = opts.prefix ?? '/registry';
    this.client = new etcd3.Etcd3({
      hosts: opts.endpoints,
      grpcOptions: { 'grpc.max_receive_message_length': -1, 'grpc.max_send_message_length': -1 },
    });
  }

  private full(key: string): Buffer {
    return Buffer.from(this.prefix + key);
  }

  private local(key: Buffer): string {
    return key.toString().slice(this.prefix.length);
  }

  async create(key: string, obj: ApiObject): Promise<ApiObject> {
    this.assertOpen();
    if (obj.metadata?.resourceVersion !== undefined && obj.metadata.resourceVersion !== '') {
      throw new InvalidObjectError(key, 'resourceVersion should not be set on objects to be created');
    }
    const value = encodeValue(key, obj);
    const k = this.full(key);
    const res = await this.call(() =>
      this.client.kv.txn({
        compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key: k, value: Buffer.from(value) } }],
        failure: [],
      }),
    );
    if (!res.succeeded) throw new KeyExistsError(key);
    return decodeValue(key, value, Number(res.header.revision));
  }

  async get(key: string, opts: GetOptions = {}): Promise<ApiObject> {
    this.assertOpen();
    const { revision, minimum } = this.readBound(opts.at);
    const res = await this.range(key, { key: this.full(key), revision }, revision);
    if (minimum !== undefined && Number(res.header.revision) < minimum) {
      throw new TooLargeResourceVersionError(key, minimum, Number(res.header.revision));
    }
    const kv = res.kvs[0];
    if (kv === undefined) throw new KeyNotFoundError(key);
    return decodeValue(key, kv.value, Number(kv.mod_revision));
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const end = opts.exactKey ? `${prefix}\u0000` : prefixEnd(prefix);
    let from = prefix;
    let revision: Revision | undefined;
    let minimum: Revision | undefined;
    let fromContinue = false;
    if (opts.continue) {
      const point = decodeContinue(prefix, opts.continue);
      revision = point.revision;
      from = point.startKey;
      fromContinue = true;
    } else {
      ({ revision, minimum } = this.readBound(opts.at));
    }
    const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : Number.POSITIVE_INFINITY;
    const items: ApiObject[] = [];
    let lastKey = '';
    let more = false;
    outer: for (;;) {
      const res = await this.range(
        prefix,
        {
          key: Buffer.from(this.prefix + from),
          range_end: Buffer.from(this.prefix + end),
          revision,
          limit: RANGE_CHUNK,
        },
        revision,
        fromContinue,
      );
      if (revision === undefined) {
        revision = Number(res.header.revision);
        if (minimum !== undefined && revision < minimum) {
          throw new TooLargeResourceVersionError(prefix, minimum, revision);
        }
      }
      for (const kv of res.kvs) {
        if (items.length >= limit) {
          more = true;
          break outer;
        }
        const key = this.local(kv.key);
        const obj = decodeValue(key, kv.value, Number(kv.mod_revision));
        from = `${key}\u0000`;
        if (opts.predicate !== undefined && !opts.predicate(obj)) continue;
        items.push(obj);
        lastKey = key;
      }
      if (!res.more || res.kvs.length === 0) break;
    }
    const result: ListResult = { items, revision };
    if (more) {
      result.continue = encodeContinue(prefix, lastKey, revision);
      if (opts.predicate === undefined) {
        const rest = await this.range(
          prefix,
          {
            key: Buffer.from(`${this.prefix + lastKey}\u0000`),
            range_end: Buffer.from(this.prefix + end),
            revision,
            count_only: true,
          },
          revision,
        );
        result.remainingItemCount = Number(rest.count);
      }
    }
    return result;
  }

  async guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts: UpdateOptions = {}): Promise<ApiObject> {
    const k = this.full(key);
    // Starting from the cache's copy saves a read per update; the write's failure branch reads the
    // current value, so a lost race (or a stale copy) costs no extra round trip either.
    const cached = opts.cachedState?.();
    let state =
      cached === undefined ? await this.updateState(key, undefined) : cachedUpdateState(key, cached);
    for (;;) {
      this.assertOpen();
      const { current, revision, stored, fresh } = state;
      if (current === null && !opts.ignoreNotFound) throw new KeyNotFoundError(key);
      let next: ApiObject | null;
      try {
        if (current !== null) checkPreconditions(key, opts.preconditions, current);
        next = await tryUpdate({ current, revision });
      } catch (err) {
        if (fresh) throw err;
        state = await this.updateState(key, undefined);
        continue;
      }
      const value = next === null ? stored : encodeValue(key, next);
      if (value === stored) {
        // Nothing to write: true only of the current value, so a cached copy is confirmed first.
        if (!fresh) {
          state = await this.updateState(key, undefined);
          continue;
        }
        if (stored === undefined) throw new KeyNotFoundError(key);
        return decodeValue(key, stored, revision);
      }
      if (value === undefined) throw new KeyNotFoundError(key);
      const res = await this.call(() =>
        this.client.kv.txn({
          compare: [
            current === null
              ? { key: k, target: 'Create', result: 'Equal', create_revision: 0 }
              : { key: k, target: 'Mod', result: 'Equal', mod_revision: revision },
          ],
          success: [{ request_put: { key: k, value: Buffer.from(value) } }],
          failure: [{ request_range: { key: k } }],
        }),
      );
      if (res.succeeded) return decodeValue(key, value, Number(res.header.revision));
      state = await this.updateState(key, res.responses[0]?.response_range);
    }
  }

  /** The current value of `key` for an update: from a range already answered, or read now. */
  private async updateState(key: string, answered: etcd3.IRangeResponse | undefined): Promise<UpdateState> {
    const kv = (answered ?? (await this.range(key, { key: this.full(key) }))).kvs[0];
    if (kv === undefined) return { current: null, revision: 0, stored: undefined, fresh: true };
    const revision = Number(kv.mod_revision);
    const stored = kv.value.toString();
    return { current: decodeValue(key, stored, revision), revision, stored, fresh: true };
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<ApiObject> {
    const k = this.full(key);
    for (;;) {
      this.assertOpen();
      const kv = (await this.range(key, { key: k })).kvs[0];
      if (kv === undefined) throw new KeyNotFoundError(key);
      const modRevision = Number(kv.mod_revision);
      if (opts.expectCorrupt) assertCorrupt(key, kv.value, modRevision);
      else {
        const current = decodeValue(key, kv.value, modRevision);
        checkPreconditions(key, opts.preconditions, current);
        if (opts.validateDeletion) await opts.validateDeletion(current);
      }
      const res = await this.call(() =>
        this.client.kv.txn({
          compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: modRevision }],
          success: [{ request_delete_range: { key: k } }],
          failure: [],
        }),
      );
      if (res.succeeded) {
        const revision = Number(res.header.revision);
        return opts.expectCorrupt ? bookmarkObject(revision) : decodeValue(key, kv.value, revision);
      }
    }
  }

  watch(prefix: string, opts: WatchOptions = {}): WatchStream {
    let cancel: (() => void) | undefined;
    const queue = new WatchQueue(() => {
      this.watches.delete(queue);
      cancel?.();
    });
    this.watches.add(queue);
    const start = async () => {
      let after = opts.revision;
      if (after === undefined) {
        // No revision: the current state first, page by page at one revision, then changes after it.
        let token: string | undefined;
        let listed: Revision | undefined;
        do {
          const page = await this.list(prefix, {
            limit: 1000,
            continue: token,
            predicate: opts.predicate,
            at: listed === undefined ? undefined : { kind: 'exact', revision: listed },
          });
          listed = page.revision;
          for (const obj of page.items) {
            queue.push({ type: 'ADDED', object: obj, revision: Number(obj.metadata?.resourceVersion) });
          }
          token = page.continue;
        } while (token !== undefined && !queue.stopped);
        after = listed;
      }
      if (queue.stopped) return;
      cancel = await this.openWatchStream(prefix, after, opts, queue);
    };
    start().catch((err) => queue.fail(this.translate(err, prefix, opts.revision ?? 0)));
    return queue;
  }

  private async openWatchStream(
    prefix: string,
    after: Revision,
    opts: WatchOptions,
    queue: WatchQueue,
  ): Promise<() => void> {
    // The pool is internal to the client library; the raw watch service needs it.
    const pool = (this.client as unknown as { pool: ConstructorParameters<typeof etcd3.WatchClient>[0] })
      .pool;
    const stream = await new etcd3.WatchClient(pool).watch();
    let ended = false;
    const cancel = () => {
      if (ended) return;
      ended = true;
      stream.cancel();
    };
    stream.on('data', (res: IWatchResponse) => {
      if (queue.stopped) return;
      if (res.compact_revision !== undefined && res.compact_revision !== '0') {
        const compactRevision = Number(res.compact_revision);
        this.compacted = Math.max(this.compacted, compactRevision);
        queue.fail(new CompactedError(prefix, after, compactRevision), compactRevision);
        cancel();
        return;
      }
      if (res.canceled) {
        queue.fail(new UnavailableError(`watch canceled: ${res.cancel_reason}`));
        cancel();
        return;
      }
      if (res.created) return;
      if (res.events.length === 0) {
        const revision = Number(res.header.revision);
        if (opts.progressNotify) queue.push({ type: 'BOOKMARK', object: bookmarkObject(revision), revision });
        return;
      }
      try {
        for (const ev of res.events) this.deliver(queue, ev.type, ev.kv, ev.prev_kv, opts);
      } catch (err) {
        // A value that does not decode ends this watch with an error; the watcher re-lists.
        queue.fail(err as Error);
        cancel();
      }
    });
    stream.on('error', (err: Error) => {
      if (!ended) queue.fail(new UnavailableError(`watch stream failed: ${err.message}`));
      ended = true;
    });
    stream.on('end', () => {
      if (!ended) queue.fail(new UnavailableError('watch stream ended'));
      ended = true;
    });
    stream.write({
      create_request: {
        key: Buffer.from(this.prefix + prefix),
        range_end: Buffer.from(this.prefix + prefixEnd(prefix)),
        start_revision: after + 1,
        prev_kv: true,
        progress_notify: opts.progressNotify ?? false,
      },
    });
    return cancel;
  }

  private deliver(
    queue: WatchQueue,
    type: 'Put' | 'Delete',
    kv: IKeyValue,
    prevKv: IKeyValue | undefined,
    opts: WatchOptions,
  ): void {
    const key = this.local(kv.key);
    const revision = Number(kv.mod_revision);
    if (type === 'Delete') {
      if (prevKv === undefined || prevKv === null) return;
      const last = decodeValue(key, prevKv.value, revision);
      const out = filteredEventType('DELETED', last, null, opts.predicate);
      if (out !== null) queue.push({ ...out, revision });
      return;
    }
    const obj = decodeValue(key, kv.value, revision);
    const created = kv.create_revision === kv.mod_revision;
    const previous =
      !created && opts.predicate !== undefined && prevKv
        ? decodeValue(key, prevKv.value, Number(prevKv.mod_revision))
        : null;
    const out = filteredEventType(created ? 'ADDED' : 'MODIFIED', obj, previous, opts.predicate);
    if (out !== null) queue.push({ ...out, revision });
  }

  async currentRevision(): Promise<Revision> {
    this.assertOpen();
    const res = await this.range('', { key: Buffer.from(this.prefix), count_only: true });
    return Number(res.header.revision);
  }

  async compact(revision: Revision): Promise<void> {
    this.assertOpen();
    const target = Math.min(revision, await this.currentRevision());
    if (target <= 0) return;
    try {
      await this.client.kv.compact({ revision: target, physical: true });
      this.compacted = Math.max(this.compacted, target);
    } catch (err) {
      if (!isCompacted(err)) throw this.translate(err, '', target);
    }
  }

  async count(prefix: string): Promise<number> {
    this.assertOpen();
    const res = await this.range(prefix, {
      key: this.full(prefix),
      range_end: this.full(prefixEnd(prefix)),
      count_only: true,
    });
    return Number(res.count);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.watches]) w.stop();
    this.client.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new UnavailableError('storage is closed');
  }

  /** `revision` for the range request (undefined: latest) and a floor the answer must reach. */
  private readBound(at: ReadAt | undefined): { revision?: Revision; minimum?: Revision } {
    if (at === undefined || at.kind === 'latest') return {};
    if (at.kind === 'notOlderThan') return { minimum: at.revision };
    return { revision: at.revision };
  }

  private range(
    key: string,
    req: etcd3.IRangeRequest,
    revision?: Revision,
    fromContinue = false,
  ): Promise<etcd3.IRangeResponse> {
    return this.call(() => this.client.kv.range(req), key, revision, fromContinue);
  }

  private async call<T>(fn: () => Promise<T>, key = '', revision = 0, fromContinue = false): Promise<T> {
    const ended = storageWorkBegins();
    try {
      return await fn();
    } catch (err) {
      throw this.translate(err, key, revision, fromContinue);
    } finally {
      ended();
    }
  }

  private translate(err: unknown, key: string, revision: Revision, fromContinue = false): Error {
    if (isCompacted(err))
      return new CompactedError(key, revision, Math.max(this.compacted, revision + 1), fromContinue);
    if (isFutureRevision(err)) {
      if (fromContinue)
        return new InvalidContinueError('continue key is not valid: resourceVersion is in the future');
      return new TooLargeResourceVersionError(key, revision, 0);
    }
    if (err instanceof Error && err.name === 'StorageError') return err;
    return new UnavailableError(`etcd: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** What an update attempt starts from: the value as stored, decoded, and whether it is known current. */
interface UpdateState {
  current: ApiObject | null;
  revision: Revision;
  /** The stored text (what an unchanged object encodes to). */
  stored: string | undefined;
  /** Read from etcd just now (or by the failed write), rather than the watch cache's copy. */
  fresh: boolean;
}

function cachedUpdateState(key: string, cached: { object: ApiObject; revision: Revision }): UpdateState {
  const stored = encodeValue(key, cached.object);
  return {
    current: decodeValue(key, stored, cached.revision),
    revision: cached.revision,
    stored,
    fresh: false,
  };
}
