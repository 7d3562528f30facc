// The token bucket against a stepped clock: the burst goes at once, then one request per 1/qps,
// in arrival order; an aborted wait returns its token; client-go's reading of 0 and negative qps.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Clock } from './api.ts';
import { DEFAULT_BURST, DEFAULT_QPS, rateLimiterFor, TokenBucket, UNLIMITED } from './rate-limiter.ts';

/** A clock that moves only when told to, firing due timers in order. */
function fakeClock(): Clock & { advance(ms: number): Promise<void> } {
  let now = 0;
  let timers: { at: number; fn: () => void; seq: number }[] = [];
  let seq = 0;
  return {
    now: () => now,
    setTimer(fn, ms) {
      const t = { at: now + ms, fn, seq: seq++ };
      timers.push(t);
      return {
        cancel: () => {
          timers = timers.filter((x) => x !== t);
        },
      };
    },
    async advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at || a.seq - b.seq);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fn();
      // Let the resolved promises' continuations run.
      await new Promise((r) => setImmediate(r));
    },
  };
}

/** Starts `n` acquisitions and records the order in which they are granted. */
function track(limiter: TokenBucket, n: number, signal?: AbortSignal) {
  const granted: number[] = [];
  const all = Array.from({ length: n }, (_, i) =>
    limiter.acquire(signal).then(
      () => granted.push(i),
      () => undefined,
    ),
  );
  return { granted, all };
}

describe('TokenBucket', () => {
  it('lets the burst through at once, then one request per 1/qps, in arrival order', async () => {
    const clock = fakeClock();
    const limiter = new TokenBucket(10, 3, clock);
    const { granted } = track(limiter, 6);
    await clock.advance(0);
    assert.deepEqual(granted, [0, 1, 2]);
    await clock.advance(99);
    assert.deepEqual(granted, [0, 1, 2]);
    await clock.advance(1);
    assert.deepEqual(granted, [0, 1, 2, 3]);
    await clock.advance(100);
    assert.deepEqual(granted, [0, 1, 2, 3, 4]);
    await clock.advance(100);
    assert.deepEqual(granted, [0, 1, 2, 3, 4, 5]);
  });

  it('refills up to the burst while idle, never beyond', async () => {
    const clock = fakeClock();
    const limiter = new TokenBucket(10, 2, clock);
    assert.ok(limiter.tryAcquire());
    assert.ok(limiter.tryAcquire());
    assert.ok(!limiter.tryAcquire());
    await clock.advance(10_000);
    assert.ok(limiter.tryAcquire());
    assert.ok(limiter.tryAcquire());
    assert.ok(!limiter.tryAcquire());
  });

  it('an aborted wait rejects with the signal reason and gives its token back', async () => {
    const clock = fakeClock();
    const limiter = new TokenBucket(1, 1, clock);
    await limiter.acquire();
    const ac = new AbortController();
    const waiting = limiter.acquire(ac.signal);
    ac.abort(new Error('stopped'));
    await assert.rejects(waiting, /stopped/);
    // Had the reservation stayed, the next caller would wait two periods instead of one.
    const { granted } = track(limiter, 1);
    await clock.advance(1000);
    assert.deepEqual(granted, [0]);
    await assert.rejects(limiter.acquire(AbortSignal.abort(new Error('already'))), /already/);
  });

  it('refuses a zero burst with a positive qps, as client-go does', () => {
    assert.throws(() => new TokenBucket(5, 0), /burst is required to be greater than 0/);
    assert.throws(() => new TokenBucket(0, 5), /qps must be a positive number/);
  });
});

describe('rateLimiterFor', () => {
  it("reads 0 as rest.Config's defaults and a negative qps as no limit", () => {
    const d = rateLimiterFor(0, 0) as TokenBucket;
    assert.deepEqual([d.qps, d.burst], [DEFAULT_QPS, DEFAULT_BURST]);
    const cm = rateLimiterFor(20, 30) as TokenBucket;
    assert.deepEqual([cm.qps, cm.burst], [20, 30]);
    assert.equal(rateLimiterFor(-1, 0), UNLIMITED);
  });
});
