// The watch queue's two ways out: iteration, and a sink that is handed events in the step that
// pushed them, pauses when full and ends once everything has gone out. And the pump that feeds an
// iterated-only stream to a sink.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { WatchEvent } from './interface.ts';
import { IterationPump, WatchQueue } from './watch-queue.ts';

const ev = (revision: number): WatchEvent => ({ type: 'MODIFIED', object: {}, revision });

describe('WatchQueue with a sink', () => {
  it('hands events over synchronously, first those pushed before it was attached', () => {
    const q = new WatchQueue();
    q.push(ev(1));
    const seen: number[] = [];
    q.attach(
      (e) => seen.push(e.revision ?? 0) > 0,
      () => {},
    );
    assert.deepEqual(seen, [1]);
    q.push(ev(2));
    assert.deepEqual(seen, [1, 2], 'delivered in the push, with no turn of the event loop');
    assert.equal(q.backlog, 0);
  });

  it('keeps no event it has handed over, whether pushed before the sink came or while it was full', async () => {
    // A collection the test can ask for; the flag reaches a fresh context's global `gc`.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const q = new WatchQueue();
    const refs: WeakRef<object>[] = [];
    const push = (n: number) => {
      for (let i = 0; i < n; i++) {
        const e = ev(refs.length + 1);
        refs.push(new WeakRef(e.object));
        q.push(e);
      }
    };
    push(16); // the initial events of a watch from resourceVersion 0, pushed before the sink
    let room = Number.POSITIVE_INFINITY;
    let seen = 0;
    q.attach(
      () => {
        seen++;
        return --room > 0;
      },
      () => {},
    );
    room = 2;
    push(5); // the sink takes two, the second filling it: three wait
    assert.equal(q.backlog, 3);
    room = Number.POSITIVE_INFINITY;
    q.resume();
    assert.equal(seen, 21);
    assert.equal(q.backlog, 0);
    // WeakRefs made in this turn hold their targets until it ends.
    await new Promise((r) => setImmediate(r));
    gc();
    assert.deepEqual(
      refs.flatMap((r, i) => (r.deref() === undefined ? [] : [i + 1])),
      [],
      'the events still referenced',
    );
    q.stop();
  });

  it('a full sink leaves events in the backlog until resume()', () => {
    const q = new WatchQueue();
    const seen: number[] = [];
    let room = 1;
    q.attach(
      (e) => {
        seen.push(e.revision ?? 0);
        return --room > 0;
      },
      () => {},
    );
    q.push(ev(1));
    q.push(ev(2));
    q.push(ev(3));
    assert.deepEqual(seen, [1]);
    assert.equal(q.backlog, 2, 'a slow watcher is visible to its source');
    room = 10;
    q.resume();
    assert.deepEqual(seen, [1, 2, 3]);
    assert.equal(q.backlog, 0);
  });

  it('says when its sink declines, and calls onCaughtUp once resume() has handed everything over', () => {
    const q = new WatchQueue();
    const seen: number[] = [];
    let room = 1;
    let caughtUp = 0;
    q.onCaughtUp = () => {
      caughtUp++;
      // The source pushes what it held back; the sink takes it in this step.
      q.push(ev(4));
    };
    q.attach(
      (e) => {
        seen.push(e.revision ?? 0);
        return --room > 0;
      },
      () => {},
    );
    assert.equal(caughtUp, 1, 'attaching hands over what waited, then asks the source');
    assert.deepEqual(seen, [4]);
    assert.equal(q.held, true);
    q.push(ev(5));
    q.push(ev(6));
    room = 1;
    q.resume();
    assert.deepEqual(seen, [4, 5]);
    assert.equal(caughtUp, 1, 'not while the sink still declines');
    room = 10;
    q.resume();
    assert.equal(q.held, false);
    assert.equal(caughtUp, 2);
    assert.deepEqual(seen, [4, 5, 6, 4]);
  });

  it('ends after the last event went out: an ERROR from fail(), and at once when stopped idle', () => {
    const q = new WatchQueue();
    const seen: string[] = [];
    let ended = 0;
    q.attach(
      (e) => seen.push(e.type) > 0,
      () => ended++,
    );
    q.fail(new Error('gone'), 7);
    assert.deepEqual(seen, ['ERROR']);
    assert.equal(ended, 1);
    q.stop();
    assert.equal(ended, 1, 'onEnd runs once');
  });

  it('stopped while full, it ends once resume() has delivered what waited', () => {
    let stopped = 0;
    const q = new WatchQueue(() => stopped++);
    const seen: number[] = [];
    let full = true;
    let ended = false;
    q.attach(
      (e) => {
        seen.push(e.revision ?? 0);
        return !full;
      },
      () => {
        ended = true;
      },
    );
    q.push(ev(1));
    q.push(ev(2));
    q.stop();
    assert.equal(stopped, 1);
    assert.equal(ended, false);
    q.push(ev(3));
    full = false;
    q.resume();
    assert.deepEqual(seen, [1, 2], 'nothing is taken after the stop');
    assert.equal(ended, true);
  });

  it('a sink that throws ends its watch and not the pusher', () => {
    const q = new WatchQueue();
    let ended = false;
    q.attach(
      () => {
        throw new Error('render failed');
      },
      () => {
        ended = true;
      },
    );
    assert.doesNotThrow(() => q.push(ev(1)));
    assert.equal(ended, true);
    assert.equal(q.stopped, true);
  });

  it('takes one sink', () => {
    const q = new WatchQueue();
    q.attach(
      () => true,
      () => {},
    );
    assert.throws(
      () =>
        q.attach(
          () => true,
          () => {},
        ),
      /one sink/,
    );
  });
});

describe('IterationPump', () => {
  async function* three(fail = false) {
    yield 1;
    yield 2;
    yield 3;
    if (fail) throw new Error('list failed');
  }

  it('feeds an iterated stream to a sink, waiting while it is full', async () => {
    const pump = new IterationPump<number>();
    const seen: number[] = [];
    let full = true;
    const ended = new Promise<unknown>((resolve) =>
      pump.start(
        three(),
        (n) => {
          seen.push(n);
          return !full;
        },
        resolve,
      ),
    );
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, [1], 'waits for resume()');
    full = false;
    pump.resume();
    assert.equal(await ended, undefined);
    assert.deepEqual(seen, [1, 2, 3]);
  });

  it("hands the iteration's failure to onEnd", async () => {
    const pump = new IterationPump<number>();
    const failure = await new Promise<unknown>((resolve) => pump.start(three(true), () => true, resolve));
    assert.match(String(failure), /list failed/);
  });
});
