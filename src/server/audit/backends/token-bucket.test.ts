import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBucket } from './token-bucket.ts';

describe('audit batch throttle', () => {
  it('lets a burst through, then one token per 1/qps seconds', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 15, () => now);
    for (let i = 0; i < 15; i++) assert.equal(bucket.reserve(), 0);
    assert.equal(Math.round(bucket.reserve()), 100);
    assert.equal(Math.round(bucket.reserve()), 200);
    now = 1000; // ten tokens came; two were already promised
    for (let i = 0; i < 8; i++) assert.equal(bucket.reserve(), 0);
    assert.equal(Math.round(bucket.reserve()), 100);
  });

  it('take ends early when aborted', async () => {
    const bucket = new TokenBucket(0.001, 1);
    await bucket.take();
    const abort = new AbortController();
    const taking = bucket.take(abort.signal);
    abort.abort();
    await taking;
  });
});
