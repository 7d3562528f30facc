// The SQLite driver under the backend, behind the few calls the backend makes: better-sqlite3 when
// it is installed, else Node's built-in `node:sqlite` (Node 22.13 and newer), so that an install
// on a current Node needs no native compile. On Node 24 and newer, better-sqlite3 before 13 is
// passed over for node:sqlite (see betterSqliteSafeHere). Both are synchronous and run statements the same
// way; the adapters only differ in pragmas and transactions, which node:sqlite has no helpers for.
//
// Statements are the drivers' own objects, not wrappers: a wrapper would cost a call per row.
// Parameters are positional only, passed spread (`run(...params)`), which both accept.

import { createRequire } from 'node:module';

export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite';

/** A prepared statement; P are its positional parameters, R a row it returns. */
export interface Statement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): unknown;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
}

export interface SqliteDatabase {
  readonly driver: SqliteDriverName;
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R>;
  exec(sql: string): void;
  /** Runs `PRAGMA <text>` and returns the first column of its first row, if it has one. */
  pragma(text: string): unknown;
  /** Wraps fn in a transaction: committed when it returns, rolled back when it throws. */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T;
  close(): void;
}

export interface OpenOptions {
  readonly?: boolean;
}

const require = createRequire(import.meta.url);

// The drivers' own types are not imported: @types/better-sqlite3 is a dev dependency only, and
// node:sqlite's types are missing from the @types/node that Node 20 uses. These are the parts used.
interface NativeStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}
interface BetterSqliteHandle {
  prepare(sql: string): NativeStatement;
  exec(sql: string): void;
  pragma(text: string, opts: { simple: true }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): F;
  close(): void;
}
type BetterSqliteConstructor = new (
  path: string,
  opts?: { readonly?: boolean; nativeBinding?: string },
) => BetterSqliteHandle;
interface NodeSqliteHandle {
  prepare(sql: string): NativeStatement;
  exec(sql: string): void;
  close(): void;
}
type NodeSqliteConstructor = new (path: string, opts?: { readOnly?: boolean }) => NodeSqliteHandle;

class BetterSqliteDatabase implements SqliteDatabase {
  readonly driver = 'better-sqlite3';
  private readonly db: BetterSqliteHandle;

  constructor(Database: BetterSqliteConstructor, path: string, opts: OpenOptions) {
    this.db = new Database(path, { readonly: opts.readonly ?? false });
  }

  prepare<P extends unknown[], R>(sql: string): Statement<P, R> {
    return this.db.prepare(sql) as Statement<P, R>;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  pragma(text: string): unknown {
    return this.db.pragma(text, { simple: true });
  }

  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
    return this.db.transaction(fn);
  }

  close(): void {
    this.db.close();
  }
}

class NodeSqliteDatabase implements SqliteDatabase {
  readonly driver = 'node:sqlite';
  private readonly db: NodeSqliteHandle;
  /** Open transactions of ours: a nested one is a savepoint, as better-sqlite3 makes it. */
  private depth = 0;

  constructor(DatabaseSync: NodeSqliteConstructor, path: string, opts: OpenOptions) {
    this.db = new DatabaseSync(path, { readOnly: opts.readonly ?? false });
  }

  prepare<P extends unknown[], R>(sql: string): Statement<P, R> {
    return this.db.prepare(sql) as Statement<P, R>;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  pragma(text: string): unknown {
    const row = this.db.prepare(`PRAGMA ${text}`).get() as Record<string, unknown> | undefined;
    if (row === undefined) return undefined;
    for (const key in row) return row[key];
    return undefined;
  }

  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
    const begin = this.db.prepare('BEGIN');
    const commit = this.db.prepare('COMMIT');
    const rollback = this.db.prepare('ROLLBACK');
    const savepoint = this.db.prepare('SAVEPOINT nested');
    const release = this.db.prepare('RELEASE nested');
    const rollbackTo = this.db.prepare('ROLLBACK TO nested');
    return (...args: A): T => {
      const nested = this.depth > 0;
      (nested ? savepoint : begin).run();
      this.depth++;
      try {
        const result = fn(...args);
        (nested ? release : commit).run();
        return result;
      } catch (err) {
        // A failed COMMIT may already have ended the transaction; the first error is the one to report.
        try {
          if (nested) {
            rollbackTo.run();
            release.run();
          } else rollback.run();
        } catch {}
        throw err;
      } finally {
        this.depth--;
      }
    };
  }

  close(): void {
    this.db.close();
  }
}

let betterSqlite: BetterSqliteConstructor | null | undefined;
let nodeSqlite: NodeSqliteConstructor | null | undefined;

/** The installed better-sqlite3's major version, or undefined when it is not installed. */
function betterSqliteMajor(): number | undefined {
  try {
    const { version } = require('better-sqlite3/package.json') as { version: string };
    return Number.parseInt(version, 10);
  } catch {
    return undefined;
  }
}

/**
 * Whether better-sqlite3 may be this process's driver without being asked for by name. Versions
 * before 13 derive their objects from node::ObjectWrap, whose destructor on Node 24.19 and newer
 * aborts the process when the garbage collector finalizes a statement outside a JS context
 * (`Assertion failed: (env) != nullptr`, nodejs/node#65446): measured here on 24.21.0 with the
 * addon built against its own headers, as `npm install` builds it, the storage bench aborted in
 * every run. Version 13 uses Node-API and needs Node 22, so Node 20 keeps 12 and Node 24 takes
 * node:sqlite.
 */
function betterSqliteSafeHere(): boolean {
  const major = betterSqliteMajor();
  if (major === undefined) return false;
  const nodeMajor = Number.parseInt(process.versions.node, 10);
  return major >= 13 || nodeMajor < 24;
}

/** better-sqlite3's constructor, or null when the package is not installed. */
function loadBetterSqlite(): BetterSqliteConstructor | null {
  if (betterSqlite === undefined) {
    try {
      betterSqlite = require('better-sqlite3') as BetterSqliteConstructor;
    } catch (err) {
      // Only absence selects the other driver; a build that fails to load is an error to see.
      if ((err as { code?: string }).code !== 'MODULE_NOT_FOUND') throw err;
      betterSqlite = null;
    }
  }
  return betterSqlite;
}

/** node:sqlite's DatabaseSync, or null on a Node without it (20, or 22 before 22.13 unflagged). */
function loadNodeSqlite(): NodeSqliteConstructor | null {
  if (nodeSqlite === undefined) {
    let builtin: { DatabaseSync: NodeSqliteConstructor } | undefined;
    try {
      // getBuiltinModule itself arrived in Node 20.16; behind a flag, the module may refuse to load.
      builtin = process.getBuiltinModule?.('node:sqlite') as typeof builtin;
    } catch {
      builtin = undefined;
    }
    nodeSqlite = builtin?.DatabaseSync ?? null;
  }
  return nodeSqlite;
}

/** Which drivers this process can use, preferred first (see betterSqliteSafeHere). */
export function availableDrivers(): SqliteDriverName[] {
  const out: SqliteDriverName[] = [];
  if (betterSqliteSafeHere() && loadBetterSqlite() !== null) out.push('better-sqlite3');
  if (loadNodeSqlite() !== null) out.push('node:sqlite');
  return out;
}

/**
 * better-sqlite3 when it is installed (and safe on this Node), else node:sqlite; an error naming
 * both when neither is there.
 */
export function defaultDriver(): SqliteDriverName {
  const [first] = availableDrivers();
  if (first === undefined) {
    throw new Error(
      'no SQLite driver: install better-sqlite3 (npm install better-sqlite3), or run on Node 22.13 or newer for node:sqlite',
    );
  }
  return first;
}

export function openSqlite(
  path: string,
  driver: SqliteDriverName = defaultDriver(),
  opts: OpenOptions = {},
): SqliteDatabase {
  if (driver === 'better-sqlite3') {
    const Database = loadBetterSqlite();
    if (Database === null) throw new Error('the better-sqlite3 driver is not installed');
    return new BetterSqliteDatabase(Database, path, opts);
  }
  const DatabaseSync = loadNodeSqlite();
  if (DatabaseSync === null) throw new Error(`node:sqlite is not available on Node ${process.version}`);
  return new NodeSqliteDatabase(DatabaseSync, path, opts);
}
