// Upstream's limiters: per-item exponential from 5 ms capped at 1000 s, the 10 qps / burst 100
// token bucket, and the default controller limiter as the larger of both.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../testing/fake-clock.ts';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
} from './rate-limiters.ts';

describe('rate limiters', () => {
  it('per-item exponential: 5, 10, 20 ms ... up to 1000 s, per item, reset by forget', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    assert.deepEqual([l.when('a'), l.when('a'), l.when('a')], [5, 10, 20]);
    assert.equal(l.when('b'), 5);
    assert.equal(l.numRequeues('a'), 3);
    for (let i = 0; i < 100; i++) l.when('a');
    assert.equal(l.when('a'), 1_000_000);
    l.forget('a');
    assert.equal(l.numRequeues('a'), 0);
    assert.equal(l.when('a'), 5);
  });

  it('token bucket: a burst of 100 at once, then one every 100 ms, refilling with time', () => {
    const clock = new FakeClock();
    const l = new BucketRateLimiter<string>(10, 100, clock);
    for (let i = 0; i < 100; i++) assert.equal(l.when(`x${i}`), 0);
    assert.equal(l.when('y'), 100);
    assert.equal(l.when('z'), 200);
    clock.step(300);
    assert.equal(l.when('w'), 0);
    clock.step(60_000);
    for (let i = 0; i < 100; i++) assert.equal(l.when(`v${i}`), 0);
    assert.equal(l.when('u') > 0, true);
    assert.equal(l.numRequeues('u'), 0);
  });

  it('max-of answers the longest wait and the highest count', () => {
    const a = new ItemExponentialFailureRateLimiter<string>(1, 1000);
    const b = new ItemExponentialFailureRateLimiter<string>(10, 1000);
    const m = new MaxOfRateLimiter(a, b);
    assert.equal(m.when('k'), 10);
    assert.equal(m.when('k'), 20);
    assert.equal(m.numRequeues('k'), 2);
    m.forget('k');
    assert.equal(a.numRequeues('k') + b.numRequeues('k'), 0);
  });

  it('the default controller limiter: per-item backoff until the bucket runs dry', () => {
    const clock = new FakeClock();
    const l = defaultControllerRateLimiter<string>(clock);
    assert.equal(l.when('a'), 5);
    assert.equal(l.when('a'), 10);
    for (let i = 0; i < 98; i++) l.when(`k${i}`);
    // The bucket's 100 tokens are spent: the next distinct item waits on it, not on its 5 ms.
    assert.equal(l.when('fresh'), 100);
  });
});
