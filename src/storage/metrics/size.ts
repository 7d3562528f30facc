// Where the database's size comes from for apiserver_storage_size_bytes: SQLite's files (the
// database and its write-ahead log, which holds committed pages until a checkpoint moves them), or
// etcd's status, asked with the one-second bound upstream's collector gives it.

import { stat } from 'node:fs/promises';
import type { StorageSizeSource } from './storage-metrics.ts';

/** How long a scrape waits for the size, as upstream's monitor does. */
const SIZE_TIMEOUT_MS = 1_000;

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

/** The SQLite database at `path`: its file and its -wal file. */
export function sqliteSizeSource(path: string): StorageSizeSource {
  return {
    endpoint: path,
    async sizeBytes() {
      const [db, wal] = await Promise.all([fileSize(path), fileSize(`${path}-wal`)]);
      if (db === 0) throw new Error(`no database at ${path}`);
      return db + wal;
    },
  };
}

/** An etcd cluster, by what a member reports (`read` is EtcdStorage.dbSizeBytes). */
export function etcdSizeSource(read: () => Promise<number>, endpoint: string): StorageSizeSource {
  return {
    endpoint,
    sizeBytes() {
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('etcd status timed out')), SIZE_TIMEOUT_MS);
        timer.unref();
        read().then(
          (n) => {
            clearTimeout(timer);
            resolve(n);
          },
          (err: unknown) => {
            clearTimeout(timer);
            reject(err);
          },
        );
      });
    },
  };
}
