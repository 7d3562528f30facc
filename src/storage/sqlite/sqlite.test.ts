import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runStorageConformance } from '../testing/conformance.ts';
import { openSqliteStorage } from './index.ts';

let dir = '';
let n = 0;
const paths = new Map<unknown, string>();

runStorageConformance('sqlite', {
  async setup() {
    dir = mkdtempSync(join(tmpdir(), 'apiserver-test-sqlite-'));
  },
  async teardown() {
    rmSync(dir, { recursive: true, force: true });
  },
  async open() {
    const path = join(dir, `store-${n++}.db`);
    const store = openSqliteStorage({ path, progressNotifyIntervalMs: 200 });
    paths.set(store, path);
    return store;
  },
  progressNotifyWithinMs: 400,
  // Damages the newest row of the key in place, as disk or tool damage would, through a second connection.
  async corrupt(store, key) {
    const db = new Database(paths.get(store) as string);
    db.prepare('UPDATE log SET value = ? WHERE revision = (SELECT max(revision) FROM log WHERE key = ?)').run(
      '{"trunc',
      key,
    );
    db.close();
  },
});
