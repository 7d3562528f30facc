// Smoke run of the stalls scenario with small bodies: every shape is sent and answered.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type StallResult, stallsScenario } from './request-stalls.ts';

describe('stalls bench scenario (quick)', () => {
  it('sends every shape and reports its status and stall', async () => {
    const out = await stallsScenario.run({
      backends: ['sqlite'],
      quick: true,
      protocol: 'http1',
      encoding: 'json',
      log: () => {},
    });
    const results = out.results as StallResult[];
    assert.equal(results.length, 10);
    for (const r of results) {
      assert.match(r.status, /^\d{3}$/, r.shape);
      assert.ok(r.wallMs >= 0 && r.worstStallMs >= 0, r.shape);
    }
    assert.match(out.markdown, /worst stall ms/);
  });
});
