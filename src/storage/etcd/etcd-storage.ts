// The distributed backend: the Storage contract on etcd v3. Keys live under a prefix (default
// /registry), values are the objects' JSON, and the resourceVersion is etcd's mod revision.
// Writes are transactions that compare the key's mod revision, so etcd itself arbitrates races.
// Watches use the raw gRPC watch stream, because the client library's watcher reconnects quietly
// and hides compaction, which clients must see as 410.
//
// Through a leader election, reads are retried, and writes are retried when etcd certainly did not
// take them or when their compare makes a second try harmless and its outcome can be judged
// (commit below); the client itself retries nothing (client.ts says why).
//
// Changes this process wrote are remembered until the watch stream reports them (Fresh below): their
// events then reach the watch cache undecoded, as a body spliced from the JSON this process encoded,
// so a write costs one encoding here instead of an encoding, a decoding and another encoding.
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
  WatchEvent,
  WatchOptions,
  WatchStream,
} from '../interface.ts';
import { checkPreconditions } from '../preconditions.ts';
import {
  assertCorrupt,
  bookmarkObject,
  decodeValue,
  encodeValue,
  type StoredBody,
  storedBody,
} from '../value-codec.ts';
import { filteredEventType, prefixEnd, WatchQueue } from '../watch-queue.ts';
import { EtcdClient } from './client.ts';
import { Compactor } from './compactor.ts';
import { classifyFailure, retryDelayMs } from './faults.ts';
import { Fresh } from './fresh.ts';
import type { StreamCall } from './grpc.ts';
import {
  decodeWatchResponse,
  encodeWatchCreate,
  type KeyValue,
  type RangeRequest,
  type RangeResponse,
  type TxnRequest,
  type TxnResponse,
  type WatchEventMessage,
} from './messages.ts';
import { LEADER_CHANGED, TermWatch } from './term-watch.ts';

export interface EtcdStorageOptions {
  endpoints: string[];
  /** Prefix of every key in etcd. Default `/registry`. */
  prefix?: string;
  /**
   * How long a request keeps trying again after failures that a leader election explains
   * (default 15 s: an election takes about a second, and a write caught by the leader's death
   * waits out etcd's 7 s request timeout before it can be tried again). 0: never retry.
   */
  retryBudgetMs?: number;
  /**
   * Compact etcd's history this often, keeping the last interval's (`--etcd-compaction-interval`;
   * one replica compacts per interval however many share the etcd). 0 or absent: never.
   */
  compactionIntervalMs?: number;
  /**
   * Run etcd's connections (HTTP/2, gRPC framing) on an I/O thread of their own, leaving this
   * thread the encoding and decoding of etcd's messages (thread-transport.ts). Default: on; the
   * thread took about a quarter of the main thread's CPU per write (bench/REPORT.md, issue 33).
   */
  ioThread?: boolean;
}

/** A write transaction's outcome: applied at `revision`, or its compare failed (with the failure reads). */
type Committed = { succeeded: true; revision: Revision } | { succeeded: false; res: TxnResponse };

/** Whether etcd's connections run on an I/O thread when the options do not say. */
const IO_THREAD_DEFAULT = true;

/** Keys read per range request; values may be large, so the gRPC receive limit is lifted too. */
const RANGE_CHUNK = 500;

function isCompacted(err: unknown): boolean {
  return err instanceof Error && /required revision has been compacted/.test(err.message);
}

function isFutureRevision(err: unknown): boolean {
  return err instanceof Error && /required revision is a future revision/.test(err.message);
}

export class EtcdStorage implements Storage {
  private readonly client: EtcdClient;
  /** Values this process wrote, until the watch stream reports them. */
  private readonly fresh = new Fresh();
  private readonly prefix: string;
  private readonly watches = new Set<WatchQueue>();
  /** Highest compaction known here; etcd's errors do not name the compact revision. */
  private compacted = 0;
  private closed = false;
  private readonly retryBudgetMs: number;
  private readonly compactor: Compactor | undefined;
  /** Notices elections, so that requests lost with a dead leader are sent again without waiting. */
  private readonly terms: TermWatch;

  constructor(opts: EtcdStorageOptions) {
    this.prefix = opts.prefix ?? '/registry';
    this.retryBudgetMs = opts.retryBudgetMs ?? 15_000;
    this.client = new EtcdClient(opts.endpoints, { ioThread: opts.ioThread ?? IO_THREAD_DEFAULT });
    this.terms = new TermWatch(() => this.client.status());
    const intervalMs = opts.compactionIntervalMs ?? 0;
    if (intervalMs > 0) {
      this.compactor = new Compactor(this.client, {
        intervalMs,
        onCompacted: (revision) => {
          this.compacted = Math.max(this.compacted, revision);
        },
      });
      this.compactor.start();
    }
  }

  /** What the history compactor has done (undefined when compaction is off). */
  get compaction(): Compactor['statistics'] | undefined {
    return this.compactor?.statistics;
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
    const bytes = Buffer.from(value);
    const res = await this.commit(
      key,
      {
        compare: [{ key: k, target: 'create', result: 'equal', createRevision: 0 }],
        success: [{ put: { key: k, value: bytes } }],
        failure: [{ range: { key: k } }],
      },
      // Ours: created with exactly these bytes and not changed since. The object carries a fresh
      // uid and creation time, so no other creator writes the same bytes.
      (kv) => kv !== undefined && kv.createRevision === kv.modRevision && bytes.equals(kv.value),
    );
    if (!res.succeeded) throw new KeyExistsError(key);
    this.fresh.wrote(key, res.revision, value);
    return decodeValue(key, value, res.revision);
  }

  async get(key: string, opts: GetOptions = {}): Promise<ApiObject> {
    this.assertOpen();
    const { revision, minimum } = this.readBound(opts.at);
    const res = await this.range(key, { key: this.full(key), revision }, revision);
    if (minimum !== undefined && res.header.revision < minimum) {
      throw new TooLargeResourceVersionError(key, minimum, res.header.revision);
    }
    const kv = res.kvs[0];
    if (kv === undefined) throw new KeyNotFoundError(key);
    return decodeValue(key, kv.value, kv.modRevision);
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
          rangeEnd: Buffer.from(this.prefix + end),
          revision,
          limit: RANGE_CHUNK,
        },
        revision,
        fromContinue,
      );
      if (revision === undefined) {
        revision = res.header.revision;
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
        const obj = decodeValue(key, kv.value, kv.modRevision);
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
            rangeEnd: Buffer.from(this.prefix + end),
            revision,
            countOnly: true,
          },
          revision,
        );
        result.remainingItemCount = rest.count;
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
      const bytes = Buffer.from(value);
      const res = await this.commit(
        key,
        {
          compare: [
            current === null
              ? { key: k, target: 'create', result: 'equal', createRevision: 0 }
              : { key: k, target: 'mod', result: 'equal', modRevision: revision },
          ],
          success: [{ put: { key: k, value: bytes } }],
          failure: [{ range: { key: k } }],
        },
        // Ours: these bytes, written after the revision the update started from. Another writer
        // that left the same bytes left the state this update wanted, which is as good.
        (kv) => kv !== undefined && kv.modRevision > revision && bytes.equals(kv.value),
      );
      if (res.succeeded) {
        this.fresh.wrote(key, res.revision, value);
        return decodeValue(key, value, res.revision);
      }
      state = await this.updateState(key, res.res.responses[0]?.range);
    }
  }

  /** The current value of `key` for an update: from a range already answered, or read now. */
  private async updateState(key: string, answered: RangeResponse | undefined): Promise<UpdateState> {
    const kv = (answered ?? (await this.range(key, { key: this.full(key) }))).kvs[0];
    if (kv === undefined) return { current: null, revision: 0, stored: undefined, fresh: true };
    const revision = kv.modRevision;
    const stored = kv.value.toString();
    return { current: decodeValue(key, stored, revision), revision, stored, fresh: true };
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<ApiObject> {
    const k = this.full(key);
    for (;;) {
      this.assertOpen();
      const kv = (await this.range(key, { key: k })).kvs[0];
      if (kv === undefined) throw new KeyNotFoundError(key);
      const modRevision = kv.modRevision;
      if (opts.expectCorrupt) assertCorrupt(key, kv.value, modRevision);
      else {
        const current = decodeValue(key, kv.value, modRevision);
        checkPreconditions(key, opts.preconditions, current);
        if (opts.validateDeletion) await opts.validateDeletion(current);
      }
      const res = await this.commit(
        key,
        {
          compare: [{ key: k, target: 'mod', result: 'equal', modRevision }],
          success: [{ deleteRange: { key: k } }],
          failure: [],
        },
        // A key found gone may have been deleted by someone else: nothing proves it was us.
        () => false,
      );
      if (res.succeeded) {
        const revision = res.revision;
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
      cancel = this.openWatchStream(prefix, after, opts, queue);
    };
    start().catch((err) => queue.fail(this.translate(err, prefix, opts.revision ?? 0)));
    return queue;
  }

  private openWatchStream(
    prefix: string,
    after: Revision,
    opts: WatchOptions,
    queue: WatchQueue,
  ): () => void {
    let ended = false;
    let call: StreamCall | undefined;
    const cancel = () => {
      if (ended) return;
      ended = true;
      call?.cancel();
    };
    const onMessage = (msg: Buffer) => {
      if (queue.stopped || ended) return;
      let res: ReturnType<typeof decodeWatchResponse>;
      try {
        res = decodeWatchResponse(msg);
      } catch (err) {
        queue.fail(new UnavailableError(`watch stream failed: ${(err as Error).message}`));
        cancel();
        return;
      }
      if (res.compactRevision !== 0) {
        const compactRevision = res.compactRevision;
        this.compacted = Math.max(this.compacted, compactRevision);
        queue.fail(new CompactedError(prefix, after, compactRevision), compactRevision);
        cancel();
        return;
      }
      if (res.canceled) {
        queue.fail(new UnavailableError(`watch canceled: ${res.cancelReason}`));
        cancel();
        return;
      }
      if (res.created) return;
      if (res.events.length === 0) {
        const revision = res.header.revision;
        if (opts.progressNotify) queue.push({ type: 'BOOKMARK', object: bookmarkObject(revision), revision });
        return;
      }
      try {
        for (const ev of res.events) this.deliver(queue, ev, opts);
      } catch (err) {
        // A value that does not decode ends this watch with an error; the watcher re-lists.
        queue.fail(err as Error);
        cancel();
      }
    };
    call = this.client.watch({
      message: onMessage,
      error: (err) => {
        if (!ended) queue.fail(new UnavailableError(`watch stream failed: ${err.message}`));
        ended = true;
      },
      end: () => {
        if (!ended) queue.fail(new UnavailableError('watch stream ended'));
        ended = true;
      },
    });
    call.write(
      encodeWatchCreate({
        key: Buffer.from(this.prefix + prefix),
        rangeEnd: Buffer.from(this.prefix + prefixEnd(prefix)),
        startRevision: after + 1,
        prevKv: true,
        progressNotify: opts.progressNotify ?? false,
      }),
    );
    return cancel;
  }

  private deliver(queue: WatchQueue, ev: WatchEventMessage, opts: WatchOptions): void {
    const { kv, prevKv } = ev;
    const key = this.local(kv.key);
    const revision = kv.modRevision;
    if (ev.type === 'delete') {
      this.fresh.forget(key, revision);
      if (prevKv === undefined) return;
      const last = decodeValue(key, prevKv.value, revision);
      const out = filteredEventType('DELETED', last, null, opts.predicate);
      if (out !== null) queue.push({ ...out, revision });
      return;
    }
    const created = kv.createRevision === kv.modRevision;
    const type = created ? 'ADDED' : 'MODIFIED';
    const text = this.fresh.take(key, revision);
    if (text !== undefined && opts.predicate === undefined) {
      // Written here: the watch cache takes a body spliced from this process's own JSON, and the
      // object is decoded only if someone reads it.
      queue.push(lazyEvent(type, key, text, revision));
      return;
    }
    const obj = decodeValue(key, text ?? kv.value, revision);
    const previous =
      !created && opts.predicate !== undefined && prevKv !== undefined
        ? decodeValue(key, prevKv.value, prevKv.modRevision)
        : null;
    const out = filteredEventType(type, obj, previous, opts.predicate);
    if (out !== null) queue.push({ ...out, revision });
  }

  async currentRevision(): Promise<Revision> {
    this.assertOpen();
    const res = await this.range('', { key: Buffer.from(this.prefix), countOnly: true });
    return res.header.revision;
  }

  /** One read, not retried: at open, an unreachable etcd should fail at once, not after retries. */
  async checkReachable(): Promise<void> {
    this.assertOpen();
    try {
      const res = await this.client.range({ key: Buffer.from(this.prefix), countOnly: true });
      this.terms.observe(res.header.raftTerm);
    } catch (err) {
      throw this.translate(err, '', 0);
    }
  }

  /** The database's size as the member that answers reports it (for the storage size metric). */
  async dbSizeBytes(): Promise<number> {
    this.assertOpen();
    return this.client.dbSize();
  }

  async compact(revision: Revision): Promise<void> {
    this.assertOpen();
    const target = Math.min(revision, await this.currentRevision());
    if (target <= 0) return;
    try {
      await this.call(() => this.client.compact(target, true), '', target);
      this.compacted = Math.max(this.compacted, target);
    } catch (err) {
      if (!(err instanceof CompactedError)) throw err;
    }
  }

  async count(prefix: string): Promise<number> {
    this.assertOpen();
    const res = await this.range(prefix, {
      key: this.full(prefix),
      rangeEnd: this.full(prefixEnd(prefix)),
      countOnly: true,
    });
    return res.count;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.watches]) w.stop();
    await this.compactor?.stop();
    this.terms.stop();
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
    req: RangeRequest,
    revision?: Revision,
    fromContinue = false,
  ): Promise<RangeResponse> {
    return this.call(() => this.client.range(req), key, revision, fromContinue);
  }

  /** A request that may be sent again whatever became of the last try: a read, or a compaction. */
  private async call<T extends { header: { raftTerm: number } }>(
    fn: () => Promise<T>,
    key = '',
    revision = 0,
    fromContinue = false,
  ): Promise<T> {
    const ended = storageWorkBegins();
    const started = performance.now();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const out = await this.terms.race(fn(), this.terms.current);
          if (out !== LEADER_CHANGED) {
            this.terms.observe(out.header.raftTerm);
            return out;
          }
          // Sent before the last election and still unanswered: likely lost with the old leader.
          if (this.mayRetry('unsent', started)) continue;
          throw new UnavailableError('etcd leader changed while a request waited for its answer');
        } catch (err) {
          if (!this.mayRetry(classifyFailure(err), started)) throw err;
        }
        await sleep(retryDelayMs(attempt));
      }
    } catch (err) {
      throw this.translate(err, key, revision, fromContinue);
    } finally {
      ended();
    }
  }

  /**
   * Runs a write transaction whose compare lets it apply at most once, through an election: sent
   * again when etcd certainly did not take it, and also when etcd may have (a timeout, a lost
   * connection), since the compare then stops a second application. Once a try may have applied,
   * a later try whose compare fails is judged by `mine` on the failure branch's read of the key:
   * true when the key holds what this write leaves, which is then its success at that revision.
   * Otherwise the caller gets the doubtful try's error, as etcd's own client would answer.
   */
  private async commit(
    key: string,
    txn: TxnRequest,
    mine: (kv: KeyValue | undefined) => boolean,
  ): Promise<Committed> {
    const ended = storageWorkBegins();
    const started = performance.now();
    let doubt: unknown;
    try {
      for (let attempt = 0; ; attempt++) {
        let res: TxnResponse | typeof LEADER_CHANGED;
        try {
          res = await this.terms.race(this.client.txn(txn), this.terms.current);
        } catch (err) {
          const kind = classifyFailure(err);
          if (!this.mayRetry(kind, started)) throw doubt ?? err;
          if (kind === 'ambiguous') doubt = err;
          await sleep(retryDelayMs(attempt));
          continue;
        }
        if (res === LEADER_CHANGED) {
          // Sent before the last election and still unanswered: perhaps lost with the old leader,
          // perhaps still to be applied. Sent again, the compare lets at most one apply.
          doubt ??= new UnavailableError('etcd leader changed while a write waited for its answer');
          if (!this.mayRetry('ambiguous', started)) throw doubt;
          continue;
        }
        this.terms.observe(res.header.raftTerm);
        if (res.succeeded) return { succeeded: true, revision: res.header.revision };
        if (doubt === undefined) return { succeeded: false, res };
        const kv = res.responses[0]?.range?.kvs[0];
        if (mine(kv)) return { succeeded: true, revision: kv!.modRevision };
        throw doubt;
      }
    } catch (err) {
      throw this.translate(err, key, 0);
    } finally {
      ended();
    }
  }

  private mayRetry(kind: ReturnType<typeof classifyFailure>, started: number): boolean {
    return kind !== 'final' && !this.closed && performance.now() - started < this.retryBudgetMs;
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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

/**
 * The event of a change written by this process, undecoded: its body for the watch cache is spliced
 * from the JSON (value-codec.ts's storedBody) and its object is decoded, once, only when read.
 */
function lazyEvent(type: 'ADDED' | 'MODIFIED', key: string, text: string, revision: Revision): WatchEvent {
  let object: ApiObject | undefined;
  let body: { value: StoredBody | undefined } | undefined;
  return {
    type,
    revision,
    get object() {
      object ??= decodeValue(key, text, revision);
      return object;
    },
    get stored() {
      body ??= { value: storedBody(key, text, revision) };
      return body.value;
    },
  };
}
