// runWorkers: success forgets, failure re-queues rate-limited, a key never runs on two workers at
// once, and aborting the signal ends the workers after their current item.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { RateLimitingQueue } from './rate-limiting-queue.ts';
import { runWorkers } from './run-workers.ts';

describe('runWorkers', () => {
  it('retries a failing item with backoff and forgets it once it succeeds', async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock });
    const ac = new AbortController();
    const attempts: string[] = [];
    const errors: number[] = [];
    const running = runWorkers(
      q,
      2,
      async (item) => {
        attempts.push(item);
        if (attempts.length < 3) throw new Error('not yet');
      },
      ac.signal,
      { onError: (_item, _err, requeues) => errors.push(requeues) },
    );
    q.add('k');
    await waitUntil(() => attempts.length === 1, 'first attempt');
    await waitUntil(() => q.waitingLen() === 1, 'the retry to wait');
    await clock.advance(5);
    await waitUntil(() => attempts.length === 2, 'second attempt');
    await waitUntil(() => q.waitingLen() === 1, 'the second retry to wait');
    await clock.advance(10);
    await waitUntil(() => attempts.length === 3, 'third attempt');
    await waitUntil(() => q.numRequeues('k') === 0, 'forget after success');
    assert.deepEqual(errors, [0, 1]);
    ac.abort();
    await running;
  });

  it('never runs one key on two workers at once, and runs it again if added meanwhile', async () => {
    const q = new RateLimitingQueue<string>();
    const ac = new AbortController();
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    let release: (() => void) | undefined;
    const running = runWorkers(
      q,
      4,
      async () => {
        active++;
        runs++;
        maxActive = Math.max(maxActive, active);
        if (runs === 1) await new Promise<void>((r) => (release = r));
        active--;
      },
      ac.signal,
    );
    q.add('same');
    await waitUntil(() => release !== undefined, 'the first run to start');
    q.add('same');
    q.add('same');
    release?.();
    await waitUntil(() => runs === 2 && active === 0, 'the second run');
    assert.equal(maxActive, 1);
    ac.abort();
    await running;
    assert.equal(q.shuttingDown(), true);
  });

  it('drops an item after maxRetries failures', async () => {
    const q = new RateLimitingQueue<string>({ clock: new FakeClock() });
    const ac = new AbortController();
    let attempts = 0;
    const running = runWorkers(
      q,
      1,
      async () => {
        attempts++;
        throw new Error('always');
      },
      ac.signal,
      { maxRetries: 0 },
    );
    q.add('k');
    await waitUntil(() => attempts === 1, 'one attempt');
    await waitUntil(() => q.numRequeues('k') === 0 && q.waitingLen() === 0, 'dropped');
    ac.abort();
    await running;
  });

  it('drops the backlog once the signal aborts, after the items in progress', async () => {
    const q = new RateLimitingQueue<string>();
    const ac = new AbortController();
    const handled: string[] = [];
    let release: (() => void) | undefined;
    const running = runWorkers(
      q,
      1,
      async (item) => {
        handled.push(item);
        await new Promise<void>((r) => (release = r));
      },
      ac.signal,
    );
    for (const k of ['a', 'b', 'c']) q.add(k);
    await waitUntil(() => release !== undefined, 'the first item to start');
    ac.abort();
    release?.();
    await running;
    assert.deepEqual(handled, ['a']);
  });
});
