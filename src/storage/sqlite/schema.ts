// The on-disk layout: one multi-version log plus a two-row meta table, and the prepared statements
// every other module of this backend uses.
//
// Each write appends one row to `log`; `revision` is the global, gapless revision (assigned by us,
// not by SQLite). The store's revision is the newest row's, or meta.revision if that is higher:
// commits do not touch meta (one page less to write and fsync per transaction), and compaction,
// the only thing that deletes rows, records the revision in meta in the same transaction, so that
// compacting away the newest row can never make a revision come back.
// A delete appends a tombstone row that keeps the last state, which is what DELETED events carry.
// The log has no index on key: `keyidx` (see key-index.ts) finds a key's revisions.

import { chmodSync, closeSync, openSync } from 'node:fs';
import { openSqlite, type SqliteDatabase, type SqliteDriverName } from './driver.ts';

export interface LogRow {
  revision: number;
  key: string;
  created: number;
  prev: number | null;
  deleted: number;
  value: string;
}

export interface StoredRow {
  revision: number;
  created: number;
  deleted: number;
  value: string;
}

const DDL = `
CREATE TABLE IF NOT EXISTS log (
  revision INTEGER PRIMARY KEY,
  key      TEXT    NOT NULL,
  created  INTEGER NOT NULL,
  prev     INTEGER,
  deleted  INTEGER NOT NULL DEFAULT 0,
  value    TEXT    NOT NULL
);
-- Maintained by key-index.ts, behind the log: complete through meta.indexed.
CREATE TABLE IF NOT EXISTS keyidx (
  key      TEXT    NOT NULL,
  revision INTEGER NOT NULL,
  deleted  INTEGER NOT NULL,
  PRIMARY KEY (key, revision)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO meta (name, value) VALUES ('revision', 0), ('compacted', 0), ('indexed', 0);
`;

export type Db = SqliteDatabase;

/**
 * The store holds Secrets: its files are the owner's alone, whatever the directory's mode or the
 * umask. SQLite gives the -wal and -shm files it creates the database file's mode.
 */
function makePrivate(path: string): void {
  if (path === ':memory:' || path.startsWith('file:')) return;
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

export function openDatabase(path: string, driver?: SqliteDriverName): Db {
  makePrivate(path);
  const db = openSqlite(path, driver);
  // Stored objects are typically about 1 KiB. A 4 KiB page holds three of them and leaves a fifth
  // of itself empty; an 8 KiB page holds seven. Commits write whole pages to the WAL, so this is
  // about 15% less to write and fsync per object. (Applies when the file is created.)
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  // Checkpoint every 2000 pages (16 MiB of WAL) rather than SQLite's 1000: half as many
  // checkpoints, each with its own fsyncs, and pages rewritten by many commits (B-tree interior
  // pages, the key index) are copied to the database once per checkpoint.
  db.pragma('wal_autocheckpoint = 2000');
  // FULL: a commit is on disk (WAL fsynced) before it returns. A file database then hands the sync
  // to the thread pool and runs at NORMAL (wal-sync.ts); the write is acknowledged after it either way.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  // 16 MiB of page cache: the watch cache in front serves reads of current objects, so this holds
  // the B-tree interior pages and recent writes; more would mostly duplicate the watch cache in
  // resident memory (64 MiB cost about 670 B per object at 100k objects).
  db.pragma('cache_size = -16384');
  // Deleted rows are overwritten with zeros, not left in free space where anyone who can read the
  // file could read them: a deleted Secret's value goes when compaction removes its last revision.
  // (Per connection; the compactor's checkpoint then clears the WAL's older copies, compactor.ts.)
  db.pragma('secure_delete = ON');
  // One transaction: one fsync for a new file instead of one per statement.
  db.exec(`BEGIN; ${DDL} COMMIT;`);
  return db;
}

/**
 * Rows per multi-row INSERT: one statement execution instead of many saves the per-call cost of
 * the driver (binding, stepping, resetting), a measurable share of a 1 KiB insert.
 */
export const INSERT_CHUNK = 16;
export const INDEX_INSERT_CHUNK = 64;

function rowsOf(columns: number, rows: number): string {
  const row = `(${Array(columns).fill('?').join(', ')})`;
  return Array(rows).fill(row).join(', ');
}

/** Every statement the backend runs, prepared once per database. */
export function prepareStatements(db: Db) {
  type IndexRow = { revision: number; deleted: number };
  return {
    rowAt: db.prepare<[number], StoredRow>(
      'SELECT revision, created, deleted, value FROM log WHERE revision = ?',
    ),
    insert: db.prepare<[number, string, number, number | null, number, string]>(
      'INSERT INTO log (revision, key, created, prev, deleted, value) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    /** INSERT_CHUNK rows in one statement: flat parameters, six per row. */
    insertMany: db.prepare<unknown[]>(
      `INSERT INTO log (revision, key, created, prev, deleted, value) VALUES ${rowsOf(6, INSERT_CHUNK)}`,
    ),
    logAfter: db.prepare<[number], { key: string; revision: number; deleted: number }>(
      'SELECT key, revision, deleted FROM log WHERE revision > ? ORDER BY revision',
    ),
    history: db.prepare<[number, number, string, string, number], LogRow>(
      `SELECT revision, key, created, prev, deleted, value FROM log
       WHERE revision > ? AND revision <= ? AND key >= ? AND key < ? ORDER BY revision LIMIT ?`,
    ),
    indexLatest: db.prepare<[string], IndexRow>(
      'SELECT revision, deleted FROM keyidx WHERE key = ? ORDER BY revision DESC LIMIT 1',
    ),
    indexLatestAt: db.prepare<[string, number], IndexRow>(
      'SELECT revision, deleted FROM keyidx WHERE key = ? AND revision <= ? ORDER BY revision DESC LIMIT 1',
    ),
    // SQLite takes bare columns from the row holding max(revision), so each group yields the
    // key's newest entry at or below the bound.
    indexRange: db.prepare<[string, string, number, number], IndexRow & { key: string }>(
      `SELECT key, max(revision) AS revision, deleted FROM keyidx
       WHERE key >= ? AND key < ? AND revision <= ? GROUP BY key ORDER BY key LIMIT ?`,
    ),
    // The same, with each live entry's value joined in, so a list reads a chunk in one statement.
    indexRangeValues: db.prepare<
      [string, string, number, number],
      IndexRow & { key: string; value: string | null }
    >(
      `SELECT g.key, g.revision, g.deleted, l.value FROM (
         SELECT key, max(revision) AS revision, deleted FROM keyidx
         WHERE key >= ? AND key < ? AND revision <= ? GROUP BY key ORDER BY key LIMIT ?
       ) AS g LEFT JOIN log AS l ON l.revision = g.revision AND g.deleted = 0
       ORDER BY g.key`,
    ),
    indexCount: db.prepare<[string, string, number], { n: number }>(
      `SELECT count(*) AS n FROM (
         SELECT max(revision), deleted FROM keyidx WHERE key >= ? AND key < ? AND revision <= ? GROUP BY key
       ) WHERE deleted = 0`,
    ),
    indexInsert: db.prepare<[string, number, number]>(
      'INSERT OR REPLACE INTO keyidx (key, revision, deleted) VALUES (?, ?, ?)',
    ),
    /** INDEX_INSERT_CHUNK entries in one statement: flat parameters, three per entry. */
    indexInsertMany: db.prepare<unknown[]>(
      `INSERT OR REPLACE INTO keyidx (key, revision, deleted) VALUES ${rowsOf(3, INDEX_INSERT_CHUNK)}`,
    ),
    indexDelete: db.prepare<[string, number]>('DELETE FROM keyidx WHERE key = ? AND revision = ?'),
    compactBatch: db.prepare<
      [number, number, number],
      { revision: number; key: string; prev: number | null; deleted: number }
    >(
      'SELECT revision, key, prev, deleted FROM log WHERE revision > ? AND revision <= ? ORDER BY revision LIMIT ?',
    ),
    deleteRow: db.prepare<[number]>('DELETE FROM log WHERE revision = ?'),
    getMeta: db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE name = ?'),
    maxRevision: db.prepare<[], { value: number | null }>('SELECT max(revision) AS value FROM log'),
    setMeta: db.prepare<[number, string]>('UPDATE meta SET value = ? WHERE name = ?'),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

/** The newest revision the store has handed out (see the header comment). */
export function storedRevision(stmts: Statements): number {
  return Math.max(stmts.getMeta.get('revision')?.value ?? 0, stmts.maxRevision.get()?.value ?? 0);
}
