// Smoke run of the storage scenario in quick mode on SQLite: proves the whole path (populate,
// measure, ceiling, list, report) works, not how fast it is.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QUICK } from './config.ts';
import { runStorageBench } from './index.ts';
import type { BackendResult } from './measure.ts';

describe('storage scenario (quick, sqlite)', () => {
  it('measures every figure and renders the table', { timeout: 30_000 }, async () => {
    const out = await runStorageBench(
      { backends: ['sqlite'], quick: true, protocol: 'http1', encoding: 'json', log: () => {} },
      QUICK,
    );
    const { backends } = out.results as { backends: BackendResult[] };
    assert.equal(backends.length, 1);
    const [r] = backends;
    assert.equal(r.backend, 'sqlite');
    assert.deepEqual(
      r.writes.map((w) => w.concurrency),
      QUICK.writerCounts,
    );
    for (const w of r.writes) {
      assert.equal(w.runs.length, QUICK.runs);
      assert.ok(w.perSec.median > 0);
    }
    assert.ok(r.reads.perSec.median > 0);
    assert.equal(r.list.objects, QUICK.listObjects);
    assert.ok(r.list.mbPerSec.median > 0);
    assert.ok(r.ceiling.perSec.median > 0);
    assert.ok(r.ceilingRatio.ratio.median > 0);
    assert.ok(r.objectBytes >= 1000 && r.objectBytes <= 1050, `object bytes ${r.objectBytes}`);

    assert.match(out.markdown, /\| Metric +\| +SQLite \|/);
    assert.match(out.markdown, /Durable writes at 64 writers as % of raw batched insert ceiling/);
    assert.doesNotMatch(out.markdown, /etcd/);
  });
});
