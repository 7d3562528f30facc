// The embedded default backend: the Storage contract on one SQLite file. Reads run directly on the
// connection, bounded by the newest durable revision (a batch is committed before its sync to disk
// finishes, and is not visible until then); writes go through the group-commit batcher.

import { loggerFor } from '../../machinery/logging/index.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { decodeContinue, encodeContinue } from '../continue-token.ts';
import {
  CompactedError,
  InvalidContinueError,
  InvalidObjectError,
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
import { assertCorrupt, bookmarkObject, decodeValue, encodeValue, stampRevision } from '../value-codec.ts';
import { prefixEnd } from '../watch-queue.ts';
import { CompactionSchedule, Compactor } from './compactor.ts';
import type { SqliteDriverName } from './driver.ts';
import { copyStored } from './json-copy.ts';
import { KeyIndex } from './key-index.ts';
import {
  type Db,
  openDatabase,
  prepareStatements,
  type Statements,
  type StoredRow,
  storedRevision,
} from './schema.ts';
import { type WalSync, walSyncFor } from './wal-sync.ts';
import { WatchHub } from './watch-hub.ts';
import { WriteBatcher, type WriteRequest } from './write-batcher.ts';

export interface SqliteStorageOptions {
  /** Database file; ':memory:' works for throwaway stores. */
  path: string;
  /** History kept for watches and exact reads; older revisions are compacted. Default 5 minutes. */
  compactionWindowMs?: number;
  /** How often the compaction schedule looks at the window. Default 1 minute. */
  compactionIntervalMs?: number;
  /** How often idle progress-notify watchers get a BOOKMARK. Default 5 seconds. */
  progressNotifyIntervalMs?: number;
  /** Where background failures (compaction) are reported. */
  onBackgroundError?: (err: Error) => void;
  /** The SQLite driver; default better-sqlite3 when it is installed, else node:sqlite (driver.ts). */
  driver?: SqliteDriverName;
}

const INITIAL_EVENTS_PAGE = 1000;

export class SqliteStorage implements Storage {
  private readonly db: Db;
  private readonly stmts: Statements;
  private readonly keys: KeyIndex;
  private readonly batcher: WriteBatcher;
  private readonly compactor: Compactor;
  private readonly schedule: CompactionSchedule;
  private readonly hub: WatchHub;
  private readonly walSync: WalSync | undefined;
  private closed = false;

  constructor(opts: SqliteStorageOptions) {
    this.db = openDatabase(opts.path, opts.driver);
    this.walSync = walSyncFor(this.db, opts.path);
    this.stmts = prepareStatements(this.db);
    const revision = storedRevision(this.stmts);
    this.keys = new KeyIndex(this.db, this.stmts);
    this.compactor = new Compactor(this.db, this.stmts, this.keys, () => this.batcher.currentRevision);
    this.hub = new WatchHub({
      stmts: this.stmts,
      currentRevision: () => this.batcher.currentRevision,
      compactedRevision: () => this.compactor.compactedRevision,
      progressNotifyIntervalMs: opts.progressNotifyIntervalMs ?? 5000,
    });
    this.batcher = new WriteBatcher(
      this.db,
      this.stmts,
      this.keys,
      revision,
      (changes) => this.hub.publish(changes),
      this.walSync,
    );
    const onError =
      opts.onBackgroundError ?? ((err: Error) => loggerFor('storage/sqlite').error(err, 'Compaction failed'));
    this.schedule = new CompactionSchedule(
      opts.compactionWindowMs ?? 5 * 60_000,
      opts.compactionIntervalMs ?? 60_000,
      () => this.batcher.currentRevision,
      (rev) => this.compact(rev),
      onError,
    );
  }

  async create(key: string, obj: ApiObject): Promise<ApiObject> {
    if (obj.metadata?.resourceVersion !== undefined && obj.metadata.resourceVersion !== '') {
      throw new InvalidObjectError(key, 'resourceVersion should not be set on objects to be created');
    }
    const value = encodeValue(key, obj);
    const copy = copyOf(obj, value);
    const outcome = await this.write({ kind: 'create', key, value, expect: 0 });
    if (!outcome.ok) throw new UnavailableError(`create of ${key} lost a race it cannot lose`);
    return stored(key, value, copy, outcome.change.revision);
  }

  async get(key: string, opts: GetOptions = {}): Promise<ApiObject> {
    this.assertOpen();
    const row = this.liveRow(key, this.readRevision(key, opts.at));
    if (row === undefined) throw new KeyNotFoundError(key);
    return decodeValue(key, row.value, row.revision);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const end = opts.exactKey ? `${prefix}\u0000` : prefixEnd(prefix);
    let start = prefix;
    let revision: Revision;
    if (opts.continue) {
      const point = decodeContinue(prefix, opts.continue);
      if (point.revision > this.batcher.currentRevision) {
        throw new InvalidContinueError('continue key is not valid: resourceVersion is in the future');
      }
      if (point.revision < this.compactor.compactedRevision) {
        throw new CompactedError(prefix, point.revision, this.compactor.compactedRevision, true);
      }
      revision = point.revision;
      start = point.startKey;
    } else {
      revision = this.readRevision(prefix, opts.at) ?? this.batcher.currentRevision;
    }

    const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : Number.POSITIVE_INFINITY;
    const { predicate } = opts;
    const items: ApiObject[] = [];
    let lastKey = '';
    let more = false;
    for (const entry of this.keys.range(start, end, revision, true)) {
      if (entry.deleted) continue;
      if (items.length >= limit) {
        more = true;
        break;
      }
      const value = entry.value ?? this.stmts.rowAt.get(entry.revision)?.value;
      if (value === undefined)
        throw new UnavailableError(`index names revision ${entry.revision}, which is missing`);
      const obj = decodeValue(entry.key, value, entry.revision);
      if (predicate !== undefined && !predicate(obj)) continue;
      items.push(obj);
      lastKey = entry.key;
    }
    const result: ListResult = { items, revision };
    if (more) {
      result.continue = encodeContinue(prefix, lastKey, revision);
      if (predicate === undefined) {
        result.remainingItemCount = this.keys.countLive(`${lastKey}\u0000`, end, revision);
      }
    }
    return result;
  }

  async guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts: UpdateOptions = {}): Promise<ApiObject> {
    for (;;) {
      this.assertOpen();
      const live = this.liveRow(key);
      if (live === undefined && !opts.ignoreNotFound) throw new KeyNotFoundError(key);
      const current = live === undefined ? null : decodeValue(key, live.value, live.revision);
      if (current !== null) checkPreconditions(key, opts.preconditions, current);
      const next = await tryUpdate({ current, revision: live?.revision ?? 0 });
      if (next === null) {
        if (live === undefined) throw new KeyNotFoundError(key);
        return decodeValue(key, live.value, live.revision);
      }
      const value = encodeValue(key, next);
      if (live !== undefined && value === live.value) return decodeValue(key, live.value, live.revision);
      const copy = copyOf(next, value);
      const outcome = await this.write({ kind: 'update', key, value, expect: live?.revision ?? 0 });
      if (outcome.ok) return stored(key, value, copy, outcome.change.revision);
    }
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<ApiObject> {
    for (;;) {
      this.assertOpen();
      const row = this.liveRow(key);
      if (row === undefined) throw new KeyNotFoundError(key);
      if (opts.expectCorrupt) {
        assertCorrupt(key, row.value, row.revision);
        const outcome = await this.write({ kind: 'delete', key, value: '', expect: row.revision });
        if (outcome.ok) return bookmarkObject(outcome.change.revision);
        continue;
      }
      const current = decodeValue(key, row.value, row.revision);
      checkPreconditions(key, opts.preconditions, current);
      if (opts.validateDeletion) await opts.validateDeletion(current);
      const outcome = await this.write({ kind: 'delete', key, value: '', expect: row.revision });
      if (outcome.ok) return decodeValue(key, row.value, outcome.change.revision);
    }
  }

  watch(prefix: string, opts: WatchOptions = {}): WatchStream {
    const end = prefixEnd(prefix);
    const base = { prefix, end, predicate: opts.predicate, progressNotify: opts.progressNotify ?? false };
    if (opts.revision !== undefined) return this.hub.open({ ...base, after: opts.revision });
    // No revision: the current state first, read page by page at one pinned revision.
    const at = this.batcher.currentRevision;
    return this.hub.open({ ...base, after: at }, async (queue) => {
      let token: string | undefined;
      do {
        const page = await this.list(prefix, {
          at: { kind: 'exact', revision: at },
          limit: INITIAL_EVENTS_PAGE,
          continue: token,
          predicate: opts.predicate,
        });
        for (const obj of page.items) {
          queue.push({ type: 'ADDED', object: obj, revision: Number(obj.metadata?.resourceVersion) });
        }
        token = page.continue;
        if (token !== undefined) await new Promise((resolve) => setImmediate(resolve));
      } while (token !== undefined && !queue.stopped);
    });
  }

  async currentRevision(): Promise<Revision> {
    return this.batcher.currentRevision;
  }

  async compact(revision: Revision): Promise<void> {
    this.assertOpen();
    await this.compactor.compact(Math.min(revision, this.batcher.currentRevision));
  }

  async count(prefix: string): Promise<number> {
    this.assertOpen();
    return this.keys.countLive(prefix, prefixEnd(prefix), this.batcher.currentRevision);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.schedule.stop();
    this.closed = true;
    await this.batcher.close();
    this.hub.close();
    this.keys.flush();
    // Let a compaction batch in progress finish before the handle goes away.
    await this.compactor.compact(0);
    this.walSync?.close();
    this.db.close();
  }

  private write(request: WriteRequest) {
    return this.batcher.submit(request);
  }

  /**
   * The key's newest row at or below `atMost` (the newest durable one by default), unless that row
   * is a tombstone.
   */
  private liveRow(key: string, atMost: Revision = this.batcher.currentRevision): StoredRow | undefined {
    const state = this.keys.state(key, atMost);
    if (state === undefined || state.deleted) return undefined;
    return this.stmts.rowAt.get(state.revision);
  }

  private assertOpen(): void {
    if (this.closed) throw new UnavailableError('storage is closed');
  }

  /**
   * The revision bound for a read, or undefined for "newest". Checks the bound against what the
   * store still holds and what it has reached.
   */
  private readRevision(key: string, at: ReadAt | undefined): Revision | undefined {
    if (at === undefined || at.kind === 'latest') return undefined;
    const current = this.batcher.currentRevision;
    if (at.revision > current) throw new TooLargeResourceVersionError(key, at.revision, current);
    if (at.kind === 'notOlderThan') return undefined;
    const compacted = this.compactor.compactedRevision;
    if (at.revision < compacted) throw new CompactedError(key, at.revision, compacted);
    return at.revision;
  }
}

/**
 * Past this many characters of JSON a write's result is parsed from what it stored, after the
 * write, rather than copied before it: the two give the same object (json-copy.ts), and copying
 * is faster for small objects, but for a large one the copy held the event loop in the same turn
 * as the request's decoding and validation (a 3 MiB ConfigMap of 216k keys: 350 ms copying,
 * about 200 ms parsing in a turn of its own).
 */
const COPY_LIMIT = 256 * 1024;

/** The write's result copied from `obj` (see COPY_LIMIT), or undefined to parse it from `value`. */
function copyOf(obj: ApiObject, value: string): Record<string, unknown> | undefined {
  return value.length > COPY_LIMIT ? undefined : copyStored(obj);
}

/**
 * The object a write stored, as a read of it would return it: the copy made when it was encoded
 * if there is one (see json-copy.ts), else parsed from the stored JSON.
 */
function stored(key: string, value: string, copy: Record<string, unknown> | undefined, revision: Revision) {
  return copy === undefined ? decodeValue(key, value, revision) : stampRevision(copy as ApiObject, revision);
}
