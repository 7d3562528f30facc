// The store a server runs on: the SQLite or etcd backend the options name, behind the watch cache
// unless `--watch-cache=false`. Storage metrics are defined in the server's registry: the backend's
// requests, lists, object counts and size are recorded under the cache (what reaches the database),
// the watch cache's events in it.

import { join } from 'node:path';
import type { MetricsRegistry } from '../machinery/metrics/index.ts';
import { CachedStorage } from '../storage/cacher/index.ts';
import type { Storage } from '../storage/interface.ts';
import {
  etcdSizeSource,
  MeteredStorage,
  ResourceOfKey,
  StorageMetrics,
  sqliteSizeSource,
  WatchCacheMetrics,
} from '../storage/metrics/index.ts';
import { featureGates } from './feature-gates.ts';
import { DEFAULTS, type ServerOptions } from './options.ts';

async function openBackend(o: ServerOptions, metrics: StorageMetrics): Promise<Storage> {
  if ((o.storageBackend ?? DEFAULTS.storageBackend) === 'etcd3') {
    const { openEtcdStorage } = await import('../storage/etcd/index.ts');
    const endpoints = o.etcdServers ?? [];
    const etcd = await openEtcdStorage({
      endpoints,
      prefix: o.etcdPrefix ?? DEFAULTS.etcdPrefix,
      // As kube-apiserver: one replica per interval compacts etcd's history to an interval ago.
      compactionIntervalMs: o.compactionIntervalMs ?? DEFAULTS.compactionIntervalMs,
    });
    metrics.setSizeSource(etcdSizeSource(() => etcd.dbSizeBytes(), endpoints[0] ?? ''));
    return etcd;
  }
  const { openSqliteStorage } = await import('../storage/sqlite/index.ts');
  const window = o.compactionIntervalMs ?? DEFAULTS.compactionIntervalMs;
  const path = join(o.dataDir, 'store.db');
  const sqlite = openSqliteStorage({
    path,
    compactionWindowMs: window,
    compactionIntervalMs: Math.min(window, 60_000),
  });
  metrics.setSizeSource(sqliteSizeSource(path));
  return sqlite;
}

/** The backend, behind the watch cache unless `--watch-cache=false`. */
export async function openStorage(o: ServerOptions, registry: MetricsRegistry): Promise<Storage> {
  const metrics = new StorageMetrics(registry);
  const resources = new ResourceOfKey();
  const backend = new MeteredStorage(await openBackend(o, metrics), metrics, resources);
  if (!(o.watchCache ?? DEFAULTS.watchCache)) return backend;
  return new CachedStorage(backend, {
    historyWindowMs: o.compactionIntervalMs ?? DEFAULTS.compactionIntervalMs,
    snapshotTtlMs: featureGates(o.featureGates)('ListFromCacheSnapshot') ? 75_000 : 0,
    metrics: new WatchCacheMetrics(registry, resources),
  });
}
