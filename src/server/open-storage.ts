// The store a server runs on: the SQLite or etcd backend the options name, behind the watch cache
// unless `--watch-cache=false`. Storage metrics are defined in the server's registry.

import { join } from 'node:path';
import type { MetricsRegistry } from '../machinery/metrics/index.ts';
import { CachedStorage } from '../storage/cacher/index.ts';
import type { Storage } from '../storage/interface.ts';
import { featureGates } from './feature-gates.ts';
import { DEFAULTS, type ServerOptions } from './options.ts';

async function openBackend(o: ServerOptions, _metrics: MetricsRegistry): Promise<Storage> {
  if ((o.storageBackend ?? DEFAULTS.storageBackend) === 'etcd3') {
    const { openEtcdStorage } = await import('../storage/etcd/index.ts');
    return openEtcdStorage({
      endpoints: o.etcdServers ?? [],
      prefix: o.etcdPrefix ?? DEFAULTS.etcdPrefix,
      // As kube-apiserver: one replica per interval compacts etcd's history to an interval ago.
      compactionIntervalMs: o.compactionIntervalMs ?? DEFAULTS.compactionIntervalMs,
    });
  }
  const { openSqliteStorage } = await import('../storage/sqlite/index.ts');
  const window = o.compactionIntervalMs ?? DEFAULTS.compactionIntervalMs;
  return openSqliteStorage({
    path: join(o.dataDir, 'store.db'),
    compactionWindowMs: window,
    compactionIntervalMs: Math.min(window, 60_000),
  });
}

/** The backend, behind the watch cache unless `--watch-cache=false`. */
export async function openStorage(o: ServerOptions, metrics: MetricsRegistry): Promise<Storage> {
  const backend = await openBackend(o, metrics);
  if (!(o.watchCache ?? DEFAULTS.watchCache)) return backend;
  return new CachedStorage(backend, {
    historyWindowMs: o.compactionIntervalMs ?? DEFAULTS.compactionIntervalMs,
    snapshotTtlMs: featureGates(o.featureGates)('ListFromCacheSnapshot') ? 75_000 : 0,
  });
}
