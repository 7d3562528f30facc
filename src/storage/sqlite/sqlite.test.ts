import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStorageConformance } from '../testing/conformance.ts';
import { availableDrivers, openSqlite } from './driver.ts';
import { openSqliteStorage } from './index.ts';

// The whole contract on every driver this Node can load: better-sqlite3 where it is installed,
// node:sqlite on Node 22.13 and newer.
for (const driver of availableDrivers()) {
  let dir = '';
  let n = 0;
  const paths = new Map<unknown, string>();

  runStorageConformance(`sqlite (${driver})`, {
    async setup() {
      dir = mkdtempSync(join(tmpdir(), 'apiserver-test-sqlite-'));
    },
    async teardown() {
      rmSync(dir, { recursive: true, force: true });
    },
    async open() {
      const path = join(dir, `store-${n++}.db`);
      const store = openSqliteStorage({ path, progressNotifyIntervalMs: 200, driver });
      paths.set(store, path);
      return store;
    },
    progressNotifyWithinMs: 400,
    // Damages the newest row of the key in place, as disk or tool damage would, through a second connection.
    async corrupt(store, key) {
      const db = openSqlite(paths.get(store) as string, driver);
      db.prepare(
        'UPDATE log SET value = ? WHERE revision = (SELECT max(revision) FROM log WHERE key = ?)',
      ).run('{"trunc', key);
      db.close();
    },
  });
}
