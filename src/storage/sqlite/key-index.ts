// Which revision holds each key's state: a (key, revision) index that answers "newest revision of
// this key at or below R" for gets, ranges and counts.
//
// Why it is not simply an SQL index on the log: writes arrive in revision order but land all over
// the key order, so an index maintained inside each durable commit dirties one B-tree page per
// write, and fsyncing those pages halved write throughput when measured. Instead, new entries sit
// in an in-memory overlay and are written to the `keyidx` table in key order, many per transaction,
// off the durable path. The index is derived data: `meta.indexed` says how far it is complete, and
// opening the store replays the log beyond that into the overlay, so losing an index transaction in
// a crash loses nothing.
//
// Keys are compared with JS string order while SQLite orders them bytewise (UTF-8); the two agree
// for ASCII, and the registry's keys are ASCII (DNS names and path segments).

import type { Revision } from '../interface.ts';
import { type Db, INDEX_INSERT_CHUNK, type Statements } from './schema.ts';

export interface KeyState {
  revision: Revision;
  deleted: boolean;
}

export interface RangeEntry extends KeyState {
  key: string;
  /** The stored JSON, when the range was asked for values and the entry is live and indexed. */
  value?: string;
}

interface OverlayEntry {
  revision: Revision;
  deleted: boolean;
}

const RANGE_CHUNK = 1000;
/** Overlay entries that trigger an immediate flush; below it a timer flushes. */
const FLUSH_AT = 4096;
const FLUSH_AFTER_MS = 250;

export class KeyIndex {
  /** Entries not yet in keyidx, per key in revision order (always newer than keyidx's). */
  private readonly overlay = new Map<string, OverlayEntry[]>();
  private pending: RangeEntry[] = [];
  private readonly writeEntries: (entries: RangeEntry[], through: Revision) => void;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly stmts: Statements,
  ) {
    const indexed = stmts.getMeta.get('indexed')?.value ?? 0;
    this.writeEntries = db.transaction((entries: RangeEntry[], through: Revision) => {
      let i = 0;
      for (; i + INDEX_INSERT_CHUNK <= entries.length; i += INDEX_INSERT_CHUNK) {
        const params: unknown[] = [];
        for (let j = i; j < i + INDEX_INSERT_CHUNK; j++) {
          const e = entries[j];
          params.push(e.key, e.revision, e.deleted ? 1 : 0);
        }
        stmts.indexInsertMany.run(...params);
      }
      for (; i < entries.length; i++) {
        const e = entries[i];
        stmts.indexInsert.run(e.key, e.revision, e.deleted ? 1 : 0);
      }
      stmts.setMeta.run(through, 'indexed');
    });
    for (const row of stmts.logAfter.iterate(indexed)) {
      this.record(row.key, row.revision, row.deleted === 1);
    }
  }

  get overlaySize(): number {
    return this.pending.length;
  }

  /** Notes a write; called inside the write's transaction, in revision order. */
  record(key: string, revision: Revision, deleted: boolean): void {
    const entry = { revision, deleted };
    const list = this.overlay.get(key);
    if (list === undefined) this.overlay.set(key, [entry]);
    else list.push(entry);
    this.pending.push({ key, revision, deleted });
  }

  /** Called after each durable commit: flushes a large overlay now, a small one soon. */
  afterCommit(): void {
    if (this.pending.length >= FLUSH_AT) this.flush();
    else if (this.timer === undefined && this.pending.length > 0) {
      this.timer = setTimeout(() => this.flush(), FLUSH_AFTER_MS);
      this.timer.unref();
    }
  }

  /** Forgets the last `count` recorded entries: their transaction rolled back. */
  unrecord(count: number): void {
    for (const e of this.pending.splice(this.pending.length - count, count)) {
      const list = this.overlay.get(e.key);
      list?.pop();
      if (list?.length === 0) this.overlay.delete(e.key);
    }
  }

  /** The newest state of `key` at or below `atMost` (newest overall when undefined). */
  state(key: string, atMost?: Revision): KeyState | undefined {
    const list = this.overlay.get(key);
    if (list !== undefined) {
      for (let i = list.length - 1; i >= 0; i--) {
        if (atMost === undefined || list[i].revision <= atMost) return list[i];
      }
    }
    const row =
      atMost === undefined ? this.stmts.indexLatest.get(key) : this.stmts.indexLatestAt.get(key, atMost);
    return row === undefined ? undefined : { revision: row.revision, deleted: row.deleted === 1 };
  }

  /**
   * Every key in [start, end) with its newest state at or below `atMost`, in key order. With
   * `withValues`, entries read from keyidx carry their value (overlay entries never do).
   */
  *range(start: string, end: string, atMost: Revision, withValues = false): Generator<RangeEntry> {
    const query = withValues ? this.stmts.indexRangeValues : this.stmts.indexRange;
    const overlayKeys = this.overlayKeys(start, end, atMost);
    let o = 0;
    let from = start;
    for (;;) {
      const rows: { key: string; revision: Revision; deleted: number; value?: string | null }[] = query.all(
        from,
        end,
        atMost,
        RANGE_CHUNK,
      );
      for (const row of rows) {
        while (o < overlayKeys.length && overlayKeys[o] < row.key)
          yield this.overlayEntry(overlayKeys[o++], atMost);
        if (o < overlayKeys.length && overlayKeys[o] === row.key) {
          yield this.overlayEntry(overlayKeys[o++], atMost);
          continue;
        }
        yield {
          key: row.key,
          revision: row.revision,
          deleted: row.deleted === 1,
          value: row.value ?? undefined,
        };
      }
      if (rows.length < RANGE_CHUNK) break;
      from = `${rows[rows.length - 1].key}\u0000`;
    }
    while (o < overlayKeys.length) yield this.overlayEntry(overlayKeys[o++], atMost);
  }

  /** Number of live keys in [start, end) at `atMost`. */
  countLive(start: string, end: string, atMost: Revision): number {
    let n = this.stmts.indexCount.get(start, end, atMost)?.n ?? 0;
    for (const key of this.overlayKeys(start, end, atMost)) {
      const row = this.stmts.indexLatestAt.get(key, atMost);
      const wasLive = row !== undefined && row.deleted === 0;
      const isLive = !this.overlayEntry(key, atMost).deleted;
      n += Number(isLive) - Number(wasLive);
    }
    return n;
  }

  /** Writes the overlay to keyidx in key order, in one transaction. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const entries = this.pending;
    const through = entries[entries.length - 1].revision;
    const sorted = [...entries].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : a.revision - b.revision,
    );
    // Derived data: no fsync of its own; the next durable log commit carries it to disk. (A
    // connection whose WAL is synced off the thread runs at NORMAL already; see wal-sync.ts.)
    const full = this.db.pragma('synchronous') === 2;
    if (full) this.db.pragma('synchronous = NORMAL');
    try {
      this.writeEntries(sorted, through);
    } finally {
      if (full) this.db.pragma('synchronous = FULL');
    }
    this.pending = [];
    this.overlay.clear();
  }

  /** Removes a compacted entry; the caller has flushed first, so it lives in keyidx. */
  forget(key: string, revision: Revision): void {
    this.stmts.indexDelete.run(key, revision);
  }

  private overlayKeys(start: string, end: string, atMost: Revision): string[] {
    const keys: string[] = [];
    for (const [key, list] of this.overlay) {
      if (key >= start && key < end && list[0].revision <= atMost) keys.push(key);
    }
    return keys.sort();
  }

  private overlayEntry(key: string, atMost: Revision): RangeEntry {
    const list = this.overlay.get(key)!;
    let i = list.length - 1;
    while (list[i].revision > atMost) i--;
    return { key, revision: list[i].revision, deleted: list[i].deleted };
  }
}
