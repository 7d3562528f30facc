import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { median, summarize } from './stats.ts';

describe('median', () => {
  it('takes the middle of an odd count regardless of order', () => {
    assert.equal(median([9, 1, 5]), 5);
  });
  it('averages the middle pair of an even count', () => {
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });
  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    median(values);
    assert.deepEqual(values, [3, 1, 2]);
  });
  it('rejects an empty list', () => {
    assert.throws(() => median([]), RangeError);
  });
});

describe('summarize', () => {
  it('reports median, min, max and keeps runs in order', () => {
    assert.deepEqual(summarize([120, 100, 110]), { median: 110, min: 100, max: 120, runs: [120, 100, 110] });
  });
  it('handles a single run', () => {
    assert.deepEqual(summarize([7]), { median: 7, min: 7, max: 7, runs: [7] });
  });
  it('rejects non-finite values, which would mean a zero-length run', () => {
    assert.throws(() => summarize([1, Number.POSITIVE_INFINITY]), RangeError);
    assert.throws(() => summarize([Number.NaN]), RangeError);
  });
});
