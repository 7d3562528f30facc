import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration } from './duration.ts';

describe('parseDuration', () => {
  it('reads Go duration spellings', () => {
    assert.equal(parseDuration('0'), 0);
    assert.equal(parseDuration('0s'), 0);
    assert.equal(parseDuration('90s'), 90_000);
    assert.equal(parseDuration('1m30s'), 90_000);
    assert.equal(parseDuration('1.5h'), 5_400_000);
    assert.equal(parseDuration('300ms'), 300);
    assert.equal(parseDuration('-2s'), -2000);
  });

  it('refuses anything else with the input in the message', () => {
    for (const bad of ['', '10', 'abc', '5 s', '1d', 's']) {
      assert.throws(() => parseDuration(bad), /time: invalid duration/, bad);
    }
  });
});
