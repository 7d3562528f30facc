// The server's store reports the storage metrics in its /metrics: a create through the API counts
// one etcd create request for its resource and one event taken by the watch cache, and the
// database's size and the object counts are there.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseExposition, sampleValue } from '../machinery/metrics/testing/exposition.ts';
import { startTestApiServer, type TestApiServer, waitFor } from './testing/index.ts';

const CM = { group: '', resource: 'configmaps' };

describe('storage metrics on /metrics', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t.stop());

  const scrape = async () => {
    const r = await t.call({ path: '/metrics' });
    assert.equal(r.status, 200, r.body);
    return parseExposition(r.body);
  };

  it('counts requests to the database and events the watch cache takes, by resource', async () => {
    const created = { operation: 'create', ...CM };
    const before = await scrape();
    const creates = sampleValue(before, 'etcd_requests_total', created) ?? 0;
    const received = sampleValue(before, 'apiserver_watch_cache_events_received_total', CM) ?? 0;
    const r = await t.call({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body: '{"metadata":{"name":"metered"}}',
    });
    assert.equal(r.status, 201, r.body);
    // The watch cache takes the event from its feed after the create has answered.
    const e = await waitFor(
      scrape,
      (x) => sampleValue(x, 'apiserver_watch_cache_events_received_total', CM) === received + 1,
      'the watch cache to take the create',
    );
    assert.equal(sampleValue(e, 'etcd_requests_total', created), creates + 1);
    assert.equal(sampleValue(e, 'etcd_request_duration_seconds_count', created), creates + 1);
    assert.equal(sampleValue(e, 'apiserver_watch_cache_events_dispatched_total', CM), received + 1);
    const rv = Number((r.json().metadata as { resourceVersion: string }).resourceVersion);
    const cacheRv = sampleValue(e, 'apiserver_watch_cache_resource_version', CM) ?? 0;
    assert.ok(cacheRv >= rv, `watch cache resource version ${cacheRv} < ${rv}`);
  });

  it('reports the database size and object counts', async () => {
    const e = await waitFor(
      scrape,
      (x) =>
        sampleValue(x, 'apiserver_resource_objects', { group: '', resource: 'namespaces' }) !== undefined,
      'the namespaces to be counted',
    );
    const size = sampleValue(e, 'apiserver_storage_size_bytes', { storage_cluster_id: 'etcd-0' });
    assert.ok(size !== undefined && size > 0, `apiserver_storage_size_bytes ${size}`);
    // Counted when first seen, and every minute since (as upstream): a number, not a failure.
    const namespaces = sampleValue(e, 'apiserver_resource_objects', { group: '', resource: 'namespaces' });
    assert.ok(
      namespaces !== undefined && namespaces >= 0,
      `apiserver_resource_objects for namespaces: ${namespaces}`,
    );
  });
});
