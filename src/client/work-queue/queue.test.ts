// The work queue's contract: de-duplication, the dirty/processing rule, shutdown and drain, delayed
// and rate-limited adds on a fake clock.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, flushAsync } from '../testing/fake-clock.ts';
import { DelayingQueue } from './delaying-queue.ts';
import { WorkQueue } from './queue.ts';
import { RateLimitingQueue } from './rate-limiting-queue.ts';

describe('WorkQueue', () => {
  it('keeps an item once however often it is added, in first-added order', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.len(), 2);
    assert.deepEqual(await q.get(), { item: 'a', shutdown: false });
    assert.deepEqual(await q.get(), { item: 'b', shutdown: false });
    assert.equal(q.len(), 0);
  });

  it('never hands out an item being processed; re-added meanwhile, it returns after done', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const first = await q.get();
    assert.equal(first.item, 'a');
    q.add('a');
    q.add('a');
    assert.equal(q.len(), 0, 'not queued while processing');
    let second: string | undefined;
    void q.get().then((r) => {
      second = r.item;
    });
    await flushAsync();
    assert.equal(second, undefined);
    q.done('a');
    await flushAsync();
    assert.equal(second, 'a', 'queued once when done');
    q.done('a');
    assert.equal(q.len(), 0);
  });

  it('a waiting get() takes the next added item', async () => {
    const q = new WorkQueue<number>();
    const pending = q.get();
    q.add(7);
    assert.deepEqual(await pending, { item: 7, shutdown: false });
  });

  it('after shutDown ignores adds, hands out what is queued, then answers shutdown', async () => {
    const q = new WorkQueue<string>();
    const waiting = q.get();
    q.shutDown();
    assert.deepEqual(await waiting, { item: undefined, shutdown: true });
    const q2 = new WorkQueue<string>();
    q2.add('x');
    q2.shutDown();
    q2.add('y');
    assert.equal(q2.shuttingDown(), true);
    assert.deepEqual(await q2.get(), { item: 'x', shutdown: false });
    assert.deepEqual(await q2.get(), { item: undefined, shutdown: true });
  });

  it('shutDownWithDrain resolves once every handed-out item is done', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    q.add('b');
    await q.get();
    await q.get();
    let drained = false;
    const d = q.shutDownWithDrain().then(() => {
      drained = true;
    });
    q.done('a');
    await flushAsync();
    assert.equal(drained, false);
    q.done('b');
    await d;
    assert.equal(drained, true);
    await new WorkQueue<string>().shutDownWithDrain();
  });

  it('a plain shutDown ends a drain that waits', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    await q.get();
    const d = q.shutDownWithDrain();
    q.shutDown();
    await d;
  });
});

describe('DelayingQueue', () => {
  it('adds an item when its time comes, keeping the earlier of two ready times', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>(clock);
    q.addAfter('late', 1000);
    q.addAfter('soon', 100);
    q.addAfter('late', 50);
    q.addAfter('soon', 5000);
    q.addAfter('now', 0);
    assert.equal(q.len(), 1);
    assert.equal(q.waitingLen(), 2);
    clock.step(49);
    assert.equal(q.len(), 1);
    clock.step(1);
    assert.equal(q.len(), 2);
    clock.step(50);
    assert.equal(q.len(), 3);
    assert.equal(q.waitingLen(), 0);
    const got = [(await q.get()).item, (await q.get()).item, (await q.get()).item];
    assert.deepEqual(got, ['now', 'late', 'soon']);
    assert.equal(clock.pendingTimers(), 0);
  });

  it('drops waiting items and their timer on shutDown', () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>(clock);
    q.addAfter('a', 100);
    q.shutDown();
    assert.equal(clock.pendingTimers(), 0);
    q.addAfter('b', 100);
    clock.step(1000);
    assert.equal(q.len(), 0);
  });
});

describe('RateLimitingQueue', () => {
  it('re-adds failures after 5 ms doubling, and forget resets the backoff', async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock });
    q.addRateLimited('k');
    assert.equal(q.numRequeues('k'), 1);
    clock.step(4);
    assert.equal(q.len(), 0);
    clock.step(1);
    assert.equal(q.len(), 1);
    await q.get();
    q.done('k');
    q.addRateLimited('k');
    clock.step(9);
    assert.equal(q.len(), 0);
    clock.step(1);
    assert.equal(q.len(), 1);
    q.forget('k');
    assert.equal(q.numRequeues('k'), 0);
  });
});
