// The embedded SQLite backend: one multi-version log in a WAL-mode file, group commit, compaction
// and in-process watch fan-out. May import storage/ shared helpers and machinery/ only.

import { availableDrivers, defaultDriver, type SqliteDriverName } from './driver.ts';
import { SqliteStorage, type SqliteStorageOptions } from './sqlite-storage.ts';

export { availableDrivers, defaultDriver, type SqliteDriverName, SqliteStorage, type SqliteStorageOptions };

export function openSqliteStorage(opts: SqliteStorageOptions): SqliteStorage {
  return new SqliteStorage(opts);
}
