// The storage metrics on both backends: a known sequence of requests shows up in etcd_requests_total,
// etcd_request_duration_seconds and the list cost counters with upstream's names, labels and
// values; object counts and the database size are reported; only backend failures count as errors.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MetricsRegistry } from '../../machinery/metrics/index.ts';
import {
  type Exposition,
  parseExposition,
  sampleValue,
  seriesOf,
} from '../../machinery/metrics/testing/exposition.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { CorruptObjectError, KeyExistsError, KeyNotFoundError, UnavailableError } from '../errors.ts';
import { openEtcdStorage } from '../etcd/index.ts';
import type { Predicate, Storage } from '../interface.ts';
import { openSqliteStorage } from '../sqlite/index.ts';
import { type EtcdServer, startEtcd } from '../testing/etcd-server.ts';
import { MeteredStorage } from './metered-storage.ts';
import { ResourceOfKey } from './resource-of.ts';
import { etcdSizeSource, sqliteSizeSource } from './size.ts';
import { ETCD_REQUEST_BUCKETS, StorageMetrics, type StorageSizeSource } from './storage-metrics.ts';

const cm = (name: string): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns' },
  data: { k: name },
});
const deploy = (name: string): ApiObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'ns' },
});

interface Metered {
  store: MeteredStorage;
  /** The decorator recording into `hidden`, under `store`. */
  inner: MeteredStorage;
  registry: MetricsRegistry;
  /** The same metrics in a registry that shows hidden (deprecated) metrics. */
  hidden: MetricsRegistry;
}

function metered(backend: Storage, size: StorageSizeSource | undefined): Metered {
  const registry = new MetricsRegistry();
  const hidden = new MetricsRegistry({ showHiddenMetricsForVersion: '1.34' });
  const metrics = new StorageMetrics(registry);
  const shown = new StorageMetrics(hidden);
  metrics.setSizeSource(size);
  shown.setSizeSource(size);
  // Both registries record the same requests: the hidden one through a second decorator.
  const inner = new MeteredStorage(backend, shown, new ResourceOfKey(), { objectCountIntervalMs: 0 });
  const store = new MeteredStorage(inner, metrics, new ResourceOfKey(), { objectCountIntervalMs: 0 });
  return { store, inner, registry, hidden };
}

const byName: Predicate = Object.assign((o: ApiObject) => o.metadata?.name === 'a', { metadataOnly: true });

/** The sequence every backend runs; the expectations below follow from it. */
async function exercise(store: MeteredStorage): Promise<void> {
  await store.create('/configmaps/ns/a', cm('a'));
  await store.create('/configmaps/ns/b', cm('b'));
  await store.create('/apps/deployments/ns/d', deploy('d'));
  await assert.rejects(store.create('/configmaps/ns/a', cm('a')), KeyExistsError);
  await store.get('/configmaps/ns/a');
  await assert.rejects(store.get('/configmaps/ns/missing'), KeyNotFoundError);
  const filtered = await store.list('/configmaps/', { predicate: byName });
  assert.deepEqual(
    filtered.items.map((o) => o.metadata?.name),
    ['a'],
  );
  assert.equal((await store.list('/configmaps/')).items.length, 2);
  await store.guaranteedUpdate(
    '/configmaps/ns/a',
    ({ current }) => ({ ...current, data: { k: 'x' } }) as ApiObject,
  );
  await store.delete('/configmaps/ns/b');
  assert.equal(await store.count('/configmaps/'), 1);
  await store.objectCountsSettled();
  await store.refreshObjectCounts();
}

const CM = { group: '', resource: 'configmaps' };

function assertRequests(e: Exposition): void {
  assert.deepEqual(seriesOf(e, 'etcd_requests_total'), [
    '{group=,operation=create,resource=configmaps} 3',
    '{group=,operation=delete,resource=configmaps} 1',
    '{group=,operation=get,resource=configmaps} 2',
    '{group=,operation=list,resource=configmaps} 2',
    // First sight, the explicit count, and the refresh.
    '{group=,operation=listWithCount,resource=configmaps} 3',
    '{group=,operation=update,resource=configmaps} 1',
    '{group=apps,operation=create,resource=deployments} 1',
    '{group=apps,operation=listWithCount,resource=deployments} 2',
  ]);
  assert.deepEqual(seriesOf(e, 'etcd_request_errors_total'), []);
  assert.equal(
    e.help.get('etcd_requests_total'),
    '[ALPHA] Etcd request counts for each operation and object type.',
  );
  assert.equal(e.type.get('etcd_request_duration_seconds'), 'histogram');
  assert.equal(
    e.help.get('etcd_request_duration_seconds'),
    '[ALPHA] Etcd request latency in seconds for each operation and object type.',
  );
  const create = { operation: 'create', ...CM };
  assert.equal(sampleValue(e, 'etcd_request_duration_seconds_count', create), 3);
  const les = e.samples
    .filter((s) => s.name === 'etcd_request_duration_seconds_bucket' && s.labels.operation === 'create')
    .filter((s) => s.labels.resource === 'configmaps')
    .map((s) => s.labels.le);
  assert.deepEqual(les, [...ETCD_REQUEST_BUCKETS.map(String), '+Inf']);
  assert.equal(sampleValue(e, 'etcd_request_duration_seconds_bucket', { ...create, le: '+Inf' }), 3);

  assert.equal(sampleValue(e, 'apiserver_storage_list_total', CM), 2);
  assert.equal(sampleValue(e, 'apiserver_storage_list_fetched_objects_total', CM), 4);
  assert.equal(sampleValue(e, 'apiserver_storage_list_evaluated_objects_total', CM), 2);
  assert.equal(sampleValue(e, 'apiserver_storage_list_returned_objects_total', CM), 3);
  assert.equal(
    e.help.get('apiserver_storage_list_evaluated_objects_total'),
    '[ALPHA] Number of objects tested in the course of serving a LIST request from storage',
  );

  assert.deepEqual(seriesOf(e, 'apiserver_resource_objects'), [
    '{group=,resource=configmaps} 1',
    '{group=apps,resource=deployments} 1',
  ]);
}

function assertSize(e: Exposition): void {
  const size = sampleValue(e, 'apiserver_storage_size_bytes', { storage_cluster_id: 'etcd-0' });
  assert.ok(size !== undefined && size > 0, `apiserver_storage_size_bytes ${size}`);
  assert.equal(
    e.help.get('apiserver_storage_size_bytes'),
    '[STABLE] Size of the storage database file physically allocated in bytes.',
  );
}

/**
 * The deprecated gauges: STABLE apiserver_storage_objects (deprecated in 1.34) is still within its
 * three releases, so shown with its note; the ALPHA total size (1.28) only when hidden ones are.
 */
function assertHidden(shown: Exposition, plain: Exposition, endpoint: string): void {
  assert.deepEqual(seriesOf(plain, 'apiserver_storage_objects'), [
    '{resource=configmaps} 1',
    '{resource=deployments.apps} 1',
  ]);
  assert.match(
    plain.help.get('apiserver_storage_objects') ?? '',
    /^\[STABLE\] \(Deprecated from 1\.34\) \[DEPRECATED, consider using apiserver_resource_objects instead\] Number of stored objects/,
  );
  const total = sampleValue(shown, 'apiserver_storage_db_total_size_in_bytes', { endpoint });
  assert.ok(total !== undefined && total > 0);
  assert.equal(plain.help.get('apiserver_storage_db_total_size_in_bytes'), undefined);
}

describe('storage metrics on SQLite', () => {
  let dir: string;
  let m: Metered;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiserver-test-storage-metrics-'));
    const path = join(dir, 'store.db');
    m = metered(openSqliteStorage({ path }), sqliteSizeSource(path));
    await exercise(m.store);
    await m.inner.refreshObjectCounts();
  });
  after(async () => {
    await m?.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts and times each request, list costs and objects by resource', async () => {
    assertRequests(parseExposition(await m.registry.metrics()));
  });

  it('reports the database file size, and the deprecated gauges when hidden metrics are shown', async () => {
    const plain = parseExposition(await m.registry.metrics());
    assertSize(plain);
    assertHidden(parseExposition(await m.hidden.metrics()), plain, join(dir, 'store.db'));
  });
});

describe('storage metrics on etcd', () => {
  let server: EtcdServer;
  let m: Metered;
  before(async () => {
    server = await startEtcd();
    const etcd = await openEtcdStorage({ endpoints: [server.endpoint], prefix: '/metrics' });
    m = metered(
      etcd,
      etcdSizeSource(() => etcd.dbSizeBytes(), server.endpoint),
    );
    await exercise(m.store);
    await m.inner.refreshObjectCounts();
  });
  after(async () => {
    await m?.store.close();
    await server?.stop();
  });

  it('counts and times each request, list costs and objects by resource', async () => {
    assertRequests(parseExposition(await m.registry.metrics()));
  });

  it("reports etcd's database size, and the deprecated gauges when hidden metrics are shown", async () => {
    const plain = parseExposition(await m.registry.metrics());
    assertSize(plain);
    assertHidden(parseExposition(await m.hidden.metrics()), plain, server.endpoint);
  });
});

describe('storage request errors', () => {
  /** A backend whose every answer is a given failure. */
  function failing(err: () => Error): Storage {
    const reject = () => Promise.reject(err());
    return {
      create: reject,
      get: reject,
      list: reject,
      guaranteedUpdate: reject,
      delete: reject,
      count: reject,
      watch: () => {
        throw err();
      },
      currentRevision: reject,
      compact: reject,
      close: () => Promise.resolve(),
    };
  }

  it('counts failures of the backend, not answers or what write callbacks throw', async () => {
    const registry = new MetricsRegistry();
    const metrics = new StorageMetrics(registry);
    const down = new MeteredStorage(
      failing(() => new UnavailableError('down')),
      metrics,
      new ResourceOfKey(),
      { objectCountIntervalMs: 0 },
    );
    await down.objectCountsSettled();
    await assert.rejects(down.get('/pods/ns/p'), UnavailableError);
    const odd = new MeteredStorage(
      failing(() => new Error('odd')),
      metrics,
      new ResourceOfKey(),
      {
        objectCountIntervalMs: 0,
      },
    );
    await assert.rejects(odd.list('/pods/ns/'));
    // An error from a write may be its tryUpdate's: not etcd failing.
    await assert.rejects(odd.guaranteedUpdate('/pods/ns/p', () => null));
    const answers = new MeteredStorage(
      failing(() => new KeyExistsError('/pods/ns/p')),
      metrics,
      new ResourceOfKey(),
      { objectCountIntervalMs: 0 },
    );
    await assert.rejects(answers.create('/pods/ns/p', cm('p')), KeyExistsError);
    const corrupt = new MeteredStorage(
      failing(() => new CorruptObjectError('/secrets/ns/s', 'stored value is not valid JSON')),
      metrics,
      new ResourceOfKey(),
      { objectCountIntervalMs: 0 },
    );
    await assert.rejects(corrupt.get('/secrets/ns/s'), CorruptObjectError);
    await Promise.all([down, odd, answers, corrupt].map((s) => s.objectCountsSettled()));

    const e = parseExposition(await registry.metrics());
    assert.deepEqual(seriesOf(e, 'etcd_request_errors_total'), [
      '{group=,operation=get,resource=pods} 1',
      '{group=,operation=list,resource=pods} 1',
      // Each decorator counted the pods on first sight, and the count failed.
      '{group=,operation=listWithCount,resource=pods} 2',
    ]);
    assert.equal(sampleValue(e, 'apiserver_resource_objects', { group: '', resource: 'pods' }), -1);
    // A value that does not decode is no failed request, but a decode error of its resource.
    assert.deepEqual(seriesOf(e, 'apiserver_storage_decode_errors_total'), [
      // The get, and the count of secrets on first sight (the stub fails every call alike).
      '{group=,resource=secrets} 2',
    ]);
    // A failed list still records its cost.
    assert.equal(sampleValue(e, 'apiserver_storage_list_total', { group: '', resource: 'pods' }), 1);
    // No size source: no size series.
    assert.deepEqual(seriesOf(e, 'apiserver_storage_size_bytes'), []);
  });
});
