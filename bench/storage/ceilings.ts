// What the hardware and the underlying engine can do without our storage layer on top: the yardstick
// for the storage write figures. Both use the same 1 KiB values as the storage runs.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { EtcdClient } from '../../src/storage/etcd/client.ts';
import { openSqlite, type SqliteDriverName } from '../../src/storage/sqlite/driver.ts';
import { nowMs, runLoad } from '../lib/timing.ts';

export interface CeilingRun {
  rows: number;
  elapsedMs: number;
  perSec: number;
}

/**
 * Batched inserts on a fresh WAL file with synchronous=FULL: every transaction is durable, as the
 * storage layer's group commits are, but with zero per-row overhead beyond the insert itself.
 */
export function rawSqliteInserts(opts: {
  dir: string;
  run: number;
  durationMs: number;
  batchRows: number;
  value: Buffer;
  driver: SqliteDriverName;
}): CeilingRun & { sqliteVersion: string } {
  const path = join(opts.dir, `raw-ceiling-${opts.run}.db`);
  const db = openSqlite(path, opts.driver);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE kv (id INTEGER PRIMARY KEY, key TEXT NOT NULL, value BLOB NOT NULL)');
    const insert = db.prepare<[string, Buffer]>('INSERT INTO kv (key, value) VALUES (?, ?)');
    let next = 0;
    const batch = db.transaction((count: number) => {
      for (let i = 0; i < count; i++) {
        insert.run(`/configmaps/raw/obj-${String(next++).padStart(9, '0')}`, opts.value);
      }
    });
    const sqliteVersion = db.prepare<[], { v: string }>('SELECT sqlite_version() AS v').get()?.v ?? '';
    const start = nowMs();
    const deadline = start + opts.durationMs;
    do batch(opts.batchRows);
    while (nowMs() < deadline);
    const elapsedMs = nowMs() - start;
    return { rows: next, elapsedMs, perSec: (next * 1000) / elapsedMs, sqliteVersion };
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  }
}

/** Plain puts of new keys with a fixed number in flight, straight through the backend's etcd client. */
export async function rawEtcdPuts(opts: {
  endpoint: string;
  run: number;
  durationMs: number;
  inFlight: number;
  value: Buffer;
}): Promise<CeilingRun> {
  const client = new EtcdClient([opts.endpoint]);
  try {
    // Connection setup and the client's cold code paths are not what is being measured.
    await runLoad({
      concurrency: opts.inFlight,
      total: 500,
      op: (seq) =>
        client.put({ key: Buffer.from(`/bench-raw/warmup-${opts.run}/${seq}`), value: opts.value }),
    });
    const result = await runLoad({
      concurrency: opts.inFlight,
      durationMs: opts.durationMs,
      op: (seq) =>
        client.put({
          key: Buffer.from(`/bench-raw/${opts.run}/obj-${String(seq).padStart(9, '0')}`),
          value: opts.value,
        }),
    });
    return { rows: result.ops, elapsedMs: result.elapsedMs, perSec: result.opsPerSec };
  } finally {
    client.close();
  }
}
