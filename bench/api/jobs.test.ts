// The watch job's bookkeeping of what each watcher saw: every sequence number once, in any order,
// however far apart, and nothing that is not the writer's.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeenSequences } from './jobs.ts';

describe('seen sequences', () => {
  it('accepts each sequence number once, in any order, growing past its first size', () => {
    const seen = new SeenSequences();
    const order = [5, 0, 4095, 4096, 70_000, 3, 1_048_575];
    for (const seq of order) assert.equal(seen.add(seq), true, `first ${seq}`);
    for (const seq of order) assert.equal(seen.add(seq), false, `again ${seq}`);
    // Growing kept what was marked below the old size, and marks nothing new.
    assert.equal(seen.add(6), true);
    assert.equal(seen.add(69_999), true);
  });

  it('refuses what is no sequence number of the writer', () => {
    const seen = new SeenSequences();
    for (const bad of [-1, 1 << 20, Number.NaN, 1.5, Number.POSITIVE_INFINITY]) {
      assert.equal(seen.add(bad), false, String(bad));
    }
  });
});
