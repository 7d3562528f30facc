// The watch job's bookkeeping of what each watcher saw: every sequence number once, in any order,
// however far apart, and nothing that is not the writer's; and of what it measured: every
// (latency, sequence) pair, in the order it came, however many blocks it takes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeenSequences, WatchSamples } from './jobs.ts';

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

describe('watch samples', () => {
  it('gives back every pair in order, across blocks, and is empty afterwards', () => {
    const samples = new WatchSamples();
    // More than two blocks of 65,536 pairs, and a negative latency (clocks may disagree by 1 ms).
    const count = 150_000;
    for (let i = 0; i < count; i++) samples.add(i % 997 === 0 ? -1 : i % 5000, i);
    const latencies = [7];
    const sequences = [8];
    samples.drainInto(latencies, sequences);
    assert.equal(latencies.length, count + 1, 'appended to what was there');
    assert.equal(sequences.length, count + 1);
    assert.deepEqual([latencies[0], sequences[0]], [7, 8]);
    for (let i = 0; i < count; i++) {
      if (sequences[i + 1] !== i || latencies[i + 1] !== (i % 997 === 0 ? -1 : i % 5000)) {
        assert.fail(`pair ${i}: ${latencies[i + 1]}, ${sequences[i + 1]}`);
      }
    }
    const again: number[] = [];
    samples.drainInto(again, []);
    assert.deepEqual(again, [], 'drained once');
    samples.add(3, 4);
    const l: number[] = [];
    const s: number[] = [];
    samples.drainInto(l, s);
    assert.deepEqual([l, s], [[3], [4]], 'usable after a drain');
  });
});
