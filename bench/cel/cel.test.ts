// Smoke run of the cel scenario: each expression compiles, evaluates to true and is measured.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { celScenario } from './index.ts';

describe('cel bench scenario (quick)', () => {
  it('measures the three expressions tracked and untracked', async () => {
    const out = await celScenario.run({
      backends: ['sqlite'],
      quick: true,
      protocol: 'http1',
      encoding: 'json',
      log: () => {},
    });
    const results = out.results as {
      name: string;
      evalsPerSecTracked: number;
      evalsPerSecUntracked: number;
      cost: number;
    }[];
    assert.deepEqual(
      results.map((r) => r.name),
      ['claim mapping', 'admission match', 'device selector'],
    );
    for (const r of results)
      assert.ok(r.evalsPerSecTracked > 0 && r.evalsPerSecUntracked > 0 && r.cost > 0, r.name);
    assert.match(out.markdown, /tracking overhead/);
  });
});
