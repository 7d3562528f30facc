// Watch event metrics through a real server: a watch of ConfigMaps that receives N events shows
// them in apiserver_watch_events_total under the watched group, version and resource, and
// apiserver_watch_events_sizes holds N observations summing to the bytes the client read.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseExposition, sampleValue } from '../../machinery/metrics/testing/exposition.ts';
import { startTestApiServer, type TestApiServer, waitFor } from '../testing/index.ts';
import { WATCH_EVENT_SIZE_BUCKETS } from './watch-metrics.ts';

const NS = 'watch-metrics';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const EVENTS = 5;
const LABELS = { group: '', version: 'v1', resource: 'configmaps' };

describe('watch event metrics', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
    const r = await t.call({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: `{"metadata":{"name":"${NS}"}}`,
    });
    assert.equal(r.status, 201, r.body);
  });
  after(() => t.stop());

  const scrape = async () => {
    const r = await t.call({ path: '/metrics' });
    assert.equal(r.status, 200, r.body);
    return parseExposition(r.body);
  };

  /** A watch from `rv`; `body()` is what the client has read so far. */
  function openWatch(rv: string): Promise<{ req: ClientRequest; body: () => Buffer }> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const req = request(
        {
          host: '127.0.0.1',
          port: t.server.port,
          path: `${CM}?watch=true&resourceVersion=${rv}`,
          ca: readFileSync(join(t.dir, 'ca.crt')),
          cert: readFileSync(join(t.dir, 'admin.crt')),
          key: readFileSync(join(t.dir, 'admin.key')),
          agent: false,
        },
        (res) => {
          assert.equal(res.statusCode, 200);
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('error', () => undefined);
          resolve({ req, body: () => Buffer.concat(chunks) });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('counts each event sent and observes its size', async () => {
    const list = await t.call({ path: CM });
    const rv = (list.json().metadata as { resourceVersion: string }).resourceVersion;
    const before = await scrape();
    assert.equal(sampleValue(before, 'apiserver_watch_events_total', LABELS), undefined);

    const watch = await openWatch(rv);
    for (let i = 0; i < EVENTS; i++) {
      const r = await t.call({ method: 'POST', path: CM, body: `{"metadata":{"name":"cm-${i}"}}` });
      assert.equal(r.status, 201, r.body);
    }
    const body = await waitFor(
      () => watch.body(),
      (b) =>
        b
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== '').length === EVENTS,
      `${EVENTS} watch events`,
    );
    watch.req.destroy();

    const e = await scrape();
    assert.equal(sampleValue(e, 'apiserver_watch_events_total', LABELS), EVENTS);
    assert.equal(
      e.help.get('apiserver_watch_events_total'),
      '[ALPHA] Number of events sent in watch clients',
    );
    assert.equal(sampleValue(e, 'apiserver_watch_events_sizes_count', LABELS), EVENTS);
    // The client read exactly the bytes the events were recorded with.
    assert.equal(sampleValue(e, 'apiserver_watch_events_sizes_sum', LABELS), body.length);
    assert.equal(
      e.help.get('apiserver_watch_events_sizes'),
      '[ALPHA] Watch event size distribution in bytes',
    );
    const les = e.samples
      .filter((s) => s.name === 'apiserver_watch_events_sizes_bucket' && s.labels.resource === 'configmaps')
      .map((s) => s.labels.le);
    assert.deepEqual(les, [...WATCH_EVENT_SIZE_BUCKETS.map(String), '+Inf']);
    assert.deepEqual(WATCH_EVENT_SIZE_BUCKETS, [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072]);
  });
});
