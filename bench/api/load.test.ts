// Merging what load workers measured: sums and maxima, latencies in worker order, and the watch's
// sequence numbers kept aligned with their latencies; load threads kept from job to job.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestApiServer } from '../../src/server/testing/index.ts';
import { apiClient } from './http-client.ts';
import { cmPath, configMap, type JobResult } from './jobs.ts';
import { LoadThreads, merge, percentile, shares } from './load.ts';
import { endpointFromKubeconfig } from './target.ts';

const result = (over: Partial<JobResult>): JobResult => ({
  latencies: [],
  ok: 0,
  failed: 0,
  retries: 0,
  bytes: 0,
  dropped: 0,
  elapsedMs: 0,
  ...over,
});

describe('merge', () => {
  it('adds counts, keeps the longest elapsed time and every latency in order', () => {
    const m = merge([
      result({ latencies: [1, 2], ok: 2, bytes: 10, elapsedMs: 5 }),
      result({ latencies: [3], ok: 1, failed: 1, dropped: 4, bytes: 7, elapsedMs: 9 }),
    ]);
    assert.deepEqual(m.latencies, [1, 2, 3]);
    assert.equal(m.ok, 3);
    assert.equal(m.failed, 1);
    assert.equal(m.dropped, 4);
    assert.equal(m.bytes, 17);
    assert.equal(m.elapsedMs, 9);
    assert.equal(m.sequences, undefined);
  });

  it('keeps watch sequence numbers beside their latencies', () => {
    const m = merge([
      result({ latencies: [10, 20], sequences: [0, 1] }),
      result({ latencies: [30], sequences: [7] }),
    ]);
    assert.deepEqual(m.latencies, [10, 20, 30]);
    assert.deepEqual(m.sequences, [0, 1, 7]);
  });

  it('drops sequence numbers that would not line up with the latencies', () => {
    const m = merge([result({ latencies: [10], sequences: [0] }), result({ latencies: [30] })]);
    assert.equal(m.sequences, undefined);
  });
});

describe('shares and percentiles', () => {
  it('splits a total into near-equal whole shares', () => {
    assert.deepEqual(shares(1001, 2), [501, 500]);
    assert.equal(
      shares(7, 3).reduce((a, b) => a + b, 0),
      7,
    );
  });

  it('takes the nearest-rank percentile', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.equal(percentile(values, 50), 50);
    assert.equal(percentile(values, 99), 99);
    assert.equal(percentile(values, 100), 100);
    assert.ok(Number.isNaN(percentile([], 50)));
  });
});

describe('kept load threads', { timeout: 60_000 }, () => {
  it('runs job after job on the same thread, and a late stop does not end the next job', async () => {
    const t = await startTestApiServer();
    const threads = new LoadThreads();
    try {
      const endpoint = endpointFromKubeconfig(t.server.adminConfigPath);
      const c = apiClient(endpoint, 'http1');
      // A watch job starts its clock once every stream has had an event.
      assert.equal((await c.request('POST', cmPath('default'), configMap('tick', 10))).status, 201);
      c.close();
      const watch = (durationMs: number) => ({
        kind: 'watch' as const,
        namespace: 'default',
        watchers: 1,
        durationMs,
      });
      let stopFirst: () => void = () => {};
      const first = await threads.run(
        endpoint,
        'http1',
        watch(100),
        () => {},
        new Promise<void>((r) => {
          stopFirst = r;
        }),
      );
      assert.equal(first.failed, 0);
      // The first job ended on its own; its stop arrives while the second runs, and must not end it.
      const second = threads.run(endpoint, 'http1', watch(1500));
      setTimeout(stopFirst, 200);
      const r = await second;
      assert.ok(r.elapsedMs >= 1400, `the second job ran ${r.elapsedMs} ms`);
      assert.equal(threads.size, 1);
    } finally {
      await threads.close();
      await t.stop();
    }
  });
});
