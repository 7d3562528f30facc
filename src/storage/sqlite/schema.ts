// The on-disk layout: one multi-version log plus a two-row meta table, and the prepared statements
// every other module of this backend uses.
//
// Each write appends one row to `log`; `revision` is the global, gapless revision (assigned by us,
// not by SQLite, so that compacting away the newest row can never make a revision come back).
// A delete appends a tombstone row that keeps the last state, which is what DELETED events carry.

import Database from 'better-sqlite3';

export interface LogRow {
  revision: number;
  key: string;
  created: number;
  prev: number | null;
  deleted: number;
  value: string;
}

export interface LatestRow {
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
-- (key, revision) is unique because revision is; deleted rides along so that counting live keys
-- never touches the table itself.
CREATE INDEX IF NOT EXISTS log_key_revision ON log (key, revision, deleted);
CREATE TABLE IF NOT EXISTS meta (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO meta (name, value) VALUES ('revision', 0), ('compacted', 0);
`;

export type Db = Database.Database;

export function openDatabase(path: string): Db {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // FULL: a commit is on disk (WAL fsynced) before we acknowledge the write.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -65536');
  db.exec(DDL);
  return db;
}

/** Every statement the backend runs, prepared once per database. */
export function prepareStatements(db: Db) {
  return {
    latest: db.prepare<[string], LatestRow>(
      'SELECT revision, created, deleted, value FROM log WHERE key = ? ORDER BY revision DESC LIMIT 1',
    ),
    latestAt: db.prepare<[string, number], LatestRow>(
      'SELECT revision, created, deleted, value FROM log WHERE key = ? AND revision <= ? ORDER BY revision DESC LIMIT 1',
    ),
    // SQLite takes bare columns from the row holding max(revision), so each group yields the
    // key's newest row at or below the bound.
    rangeAt: db.prepare<
      [string, string, number],
      { key: string; revision: number; deleted: number; value: string }
    >(
      `SELECT key, max(revision) AS revision, deleted, value FROM log
       WHERE key >= ? AND key < ? AND revision <= ? GROUP BY key ORDER BY key`,
    ),
    countAt: db.prepare<[string, string, number], { n: number }>(
      `SELECT count(*) AS n FROM (
         SELECT max(revision), deleted FROM log WHERE key >= ? AND key < ? AND revision <= ? GROUP BY key
       ) WHERE deleted = 0`,
    ),
    insert: db.prepare<[number, string, number, number | null, number, string]>(
      'INSERT INTO log (revision, key, created, prev, deleted, value) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    history: db.prepare<[number, number, string, string, number], LogRow>(
      `SELECT revision, key, created, prev, deleted, value FROM log
       WHERE revision > ? AND revision <= ? AND +key >= ? AND +key < ? ORDER BY revision LIMIT ?`,
    ),
    valueAt: db.prepare<[number], { value: string }>('SELECT value FROM log WHERE revision = ?'),
    compactBatch: db.prepare<
      [number, number, number],
      { revision: number; prev: number | null; deleted: number }
    >(
      'SELECT revision, prev, deleted FROM log WHERE revision > ? AND revision <= ? ORDER BY revision LIMIT ?',
    ),
    deleteRow: db.prepare<[number]>('DELETE FROM log WHERE revision = ?'),
    getMeta: db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE name = ?'),
    setMeta: db.prepare<[number, string]>('UPDATE meta SET value = ? WHERE name = ?'),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
