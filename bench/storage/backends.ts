// Opens each backend on fresh, private state and tears it down afterwards. The backend modules are
// imported lazily so a sqlite-only run (and its smoke test) never loads gRPC or needs an etcd binary.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Storage } from '../../src/storage/interface.ts';
import type { SqliteDriverName } from '../../src/storage/sqlite/index.ts';
import type { BackendName } from '../lib/scenario.ts';

export interface BackendHarness {
  name: BackendName;
  storage: Storage;
  /** Where the raw ceiling for this backend is measured: a scratch dir or the same etcd server. */
  scratchDir?: string;
  /** The SQLite driver under test; the raw ceiling uses the same one. */
  sqliteDriver?: SqliteDriverName;
  etcdEndpoint?: string;
  /** Free-form facts about the setup, recorded in the results file. */
  details: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The SQLite driver to measure: BENCH_SQLITE_DRIVER=node:sqlite or better-sqlite3 picks one (to
 * compare them back to back); unset, the store's own default (see src/storage/sqlite/driver.ts).
 */
function sqliteDriver(defaultDriver: () => SqliteDriverName): SqliteDriverName {
  const asked = process.env.BENCH_SQLITE_DRIVER;
  if (asked === undefined || asked === '') return defaultDriver();
  if (asked !== 'better-sqlite3' && asked !== 'node:sqlite') {
    throw new Error(`BENCH_SQLITE_DRIVER=${asked}: expected better-sqlite3 or node:sqlite`);
  }
  return asked;
}

async function openSqlite(): Promise<BackendHarness> {
  const { defaultDriver, openSqliteStorage } = await import('../../src/storage/sqlite/index.ts');
  const driver = sqliteDriver(defaultDriver);
  const dir = mkdtempSync(join(tmpdir(), 'bench-sqlite-'));
  const path = join(dir, 'store.db');
  let storage: Storage;
  try {
    storage = openSqliteStorage({ path, driver });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    name: 'sqlite',
    storage,
    scratchDir: dir,
    sqliteDriver: driver,
    details: { path, driver, node: process.version },
    async close() {
      try {
        await storage.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function openEtcd(): Promise<BackendHarness> {
  const [{ openEtcdStorage }, { startEtcd }] = await Promise.all([
    import('../../src/storage/etcd/index.ts'),
    import('../../src/storage/testing/etcd-server.ts'),
  ]);
  const server = await startEtcd();
  let storage: Storage;
  try {
    storage = await openEtcdStorage({ endpoints: [server.endpoint], prefix: '/registry' });
  } catch (err) {
    await server.stop();
    throw err;
  }
  return {
    name: 'etcd3',
    storage,
    etcdEndpoint: server.endpoint,
    details: { endpoint: server.endpoint, dataDir: server.dataDir },
    async close() {
      try {
        await storage.close();
      } finally {
        await server.stop();
      }
    },
  };
}

export function openBackend(name: BackendName): Promise<BackendHarness> {
  switch (name) {
    case 'sqlite':
      return openSqlite();
    case 'etcd3':
      return openEtcd();
  }
}
