// Merging what load workers measured: sums and maxima, latencies in worker order, and the watch's
// sequence numbers kept aligned with their latencies.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JobResult } from './jobs.ts';
import { merge, percentile, shares } from './load.ts';

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
