// The watch cache's metrics: a cache started over a store holding objects counts one
// initialization per resource it holds (and per resource that turns up later), every change it
// takes from its feed as received and dispatched, and reports its revision for each resource.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { parseExposition, sampleValue, seriesOf } from '../../machinery/metrics/testing/exposition.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { CachedStorage } from '../cacher/index.ts';
import { openSqliteStorage } from '../sqlite/index.ts';
import { WatchCacheMetrics } from './cache-metrics.ts';
import { MeteredStorage } from './metered-storage.ts';
import { ResourceOfKey } from './resource-of.ts';
import { StorageMetrics } from './storage-metrics.ts';

const obj = (kind: string, name: string): ApiObject => ({ kind, metadata: { name, namespace: 'ns' } });

describe('watch cache metrics', () => {
  let dir: string;
  let cache: CachedStorage;
  let registry: MetricsRegistry;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiserver-test-cache-metrics-'));
    registry = new MetricsRegistry();
    const resources = new ResourceOfKey();
    const backend = new MeteredStorage(
      openSqliteStorage({ path: join(dir, 'store.db') }),
      new StorageMetrics(registry),
      resources,
      { objectCountIntervalMs: 0 },
    );
    await backend.create('/configmaps/ns/a', obj('ConfigMap', 'a'));
    await backend.create('/configmaps/ns/b', obj('ConfigMap', 'b'));
    cache = new CachedStorage(backend, { metrics: new WatchCacheMetrics(registry, resources) });
    // Three changes to a resource the cache started with, one to a resource it had not seen.
    await cache.create('/configmaps/ns/c', obj('ConfigMap', 'c'));
    await cache.guaranteedUpdate(
      '/configmaps/ns/a',
      ({ current }) => ({ ...current, data: { x: '1' } }) as ApiObject,
    );
    await cache.delete('/configmaps/ns/b');
    await cache.create('/apps/deployments/ns/d', obj('Deployment', 'd'));
    // A consistent list from the cache waits until it has taken every change.
    await cache.list('/configmaps/');
  });
  after(async () => {
    await cache?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts initializations, received and dispatched events by resource', async () => {
    const e = parseExposition(await registry.metrics());
    assert.deepEqual(seriesOf(e, 'apiserver_watch_cache_initializations_total'), [
      '{group=,resource=configmaps} 1',
      '{group=apps,resource=deployments} 1',
    ]);
    assert.deepEqual(seriesOf(e, 'apiserver_watch_cache_events_received_total'), [
      '{group=,resource=configmaps} 3',
      '{group=apps,resource=deployments} 1',
    ]);
    assert.deepEqual(seriesOf(e, 'apiserver_watch_cache_events_dispatched_total'), [
      '{group=,resource=configmaps} 3',
      '{group=apps,resource=deployments} 1',
    ]);
    assert.equal(
      e.help.get('apiserver_watch_cache_events_received_total'),
      '[ALPHA] Counter of events received in watch cache broken by resource type.',
    );
  });

  it("sums the encoded size of each resource's objects", async () => {
    const e = parseExposition(await registry.metrics());
    const sizeOf = async (prefix: string) =>
      ((await cache.list(prefix)).encoded ?? []).reduce((sum, item) => sum + item.bytes, 0);
    const cms = await sizeOf('/configmaps/');
    assert.ok(cms > 0);
    assert.equal(
      sampleValue(e, 'apiserver_resource_size_estimate_bytes', { group: '', resource: 'configmaps' }),
      cms,
    );
    assert.equal(
      sampleValue(e, 'apiserver_resource_size_estimate_bytes', { group: 'apps', resource: 'deployments' }),
      await sizeOf('/apps/deployments/'),
    );
  });

  it("reports the cache's resource version for each resource", async () => {
    const revision = await cache.currentRevision();
    const e = parseExposition(await registry.metrics());
    // Six writes in all: two before the cache, four through it.
    assert.equal(revision, 6);
    assert.equal(
      sampleValue(e, 'apiserver_watch_cache_resource_version', { group: '', resource: 'configmaps' }),
      6,
    );
    assert.equal(
      sampleValue(e, 'apiserver_watch_cache_resource_version', { group: 'apps', resource: 'deployments' }),
      6,
    );
  });
});

describe('watch cache metrics of slow watchers', () => {
  it('counts watchers cut off for falling behind, by resource', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-cache-metrics-'));
    const registry = new MetricsRegistry();
    const resources = new ResourceOfKey();
    const cache = new CachedStorage(openSqliteStorage({ path: join(dir, 'store.db') }), {
      metrics: new WatchCacheMetrics(registry, resources),
      watcherBacklog: 2,
    });
    try {
      // Never read: its events pile up until the cache ends it.
      const slow = cache.watch('/configmaps/', { revision: await cache.currentRevision() });
      for (const name of ['a', 'b', 'c', 'd'])
        await cache.create(`/configmaps/ns/${name}`, obj('ConfigMap', name));
      await cache.list('/configmaps/');
      const e = parseExposition(await registry.metrics());
      assert.deepEqual(seriesOf(e, 'apiserver_terminated_watchers_total'), [
        '{group=,resource=configmaps} 1',
      ]);
      assert.equal(
        e.help.get('apiserver_terminated_watchers_total'),
        '[ALPHA] Counter of watchers closed due to unresponsiveness broken by resource type.',
      );
      slow.stop();
    } finally {
      await cache.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
