// The watch writer: an idle stream writes at once, a busy one gathers events into one write per
// interval (collecting, at its turn, what its source held back), and a full socket (one with a
// backlog) holds the stream back until it drains, whoever did the write.

import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { WatchBudget } from './watch-budget.ts';
import { type EventSink, FULL_QUEUED_BYTES, MAX_GATHERED_BYTES, WatchWriter } from './watch-writer.ts';

/** A socket stand-in: records writes, and refuses more while `full` until drain() is called. */
class FakeSink extends EventEmitter implements EventSink {
  writes: string[] = [];
  /** Each write's chunk and its callback, for the callers that complete writes themselves. */
  written: { chunk: string | Buffer; done?: () => void }[] = [];
  full = false;
  /** What the socket holds unsent, when the test says; undefined leaves it unknown. */
  writableLength: number | undefined;
  writableEnded = false;
  destroyed = false;

  write(chunk: string | Buffer, done?: () => void): boolean {
    this.writes.push(String(chunk));
    this.written.push({ chunk, done });
    return !this.full;
  }

  drain(): void {
    this.full = false;
    this.emit('drain');
  }
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntil(cond: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 30_000; !cond(); await tick(2)) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
  }
}

describe('watch writer', () => {
  it('writes an idle stream at once and gathers a busy one into one write per interval', async () => {
    const sink = new FakeSink();
    const w = new WatchWriter(sink, 30);
    w.push('a\n');
    assert.deepEqual(sink.writes, ['a\n']);
    w.push('b\n');
    w.push('c\n');
    assert.deepEqual(sink.writes, ['a\n'], 'held back within the interval');
    await tick(60);
    assert.deepEqual(sink.writes, ['a\n', 'b\nc\n']);
    w.close();
  });

  it('holds the stream while the socket is full, whoever wrote into it', async () => {
    const sink = new FakeSink();
    const w = new WatchWriter(sink, 20);
    w.push('a\n');
    sink.full = true;
    w.push('b\n'); // goes out from the timer, into a full socket
    await tick(40);
    assert.deepEqual(sink.writes, ['a\n', 'b\n']);
    let drained = false;
    const waiting = w.drained().then(() => {
      drained = true;
    });
    await tick(5);
    assert.equal(drained, false, 'the socket is still full');
    sink.drain();
    await waiting;
    assert.equal(drained, true);
    w.close();
  });

  it('counts a refused write as full only once 64 KiB are queued', async () => {
    const sink = new FakeSink();
    const w = new WatchWriter(sink, 1000);
    sink.full = true;
    sink.writableLength = FULL_QUEUED_BYTES - 1;
    w.push('a\n');
    assert.deepEqual(sink.writes, ['a\n']);
    assert.equal(w.full, false, 'refused by a 16 KiB mark, but little is waiting');
    const outcome = await Promise.race([w.drained().then(() => 'at once'), tick(50).then(() => 'waited')]);
    assert.equal(outcome, 'at once');
    assert.equal(sink.listenerCount('drain'), 0, 'no drain is awaited');

    sink.writableLength = FULL_QUEUED_BYTES;
    w.push('b\n');
    w.flush();
    assert.equal(w.full, true, 'a real backlog');
    let drained = false;
    const waiting = w.drained().then(() => {
      drained = true;
    });
    await tick(5);
    assert.equal(drained, false);
    sink.drain();
    await waiting;
    assert.equal(w.full, false);
    w.close();
  });

  it('does not wait for a drain that came while nobody was waiting', async () => {
    const sink = new FakeSink();
    const w = new WatchWriter(sink, 20);
    w.push('a\n');
    sink.full = true;
    w.push('b\n');
    await tick(40); // the timed write fills the socket...
    sink.drain(); // ...which drains before the stream asks
    const outcome = await Promise.race([w.drained().then(() => 'drained'), tick(200).then(() => 'stuck')]);
    assert.equal(outcome, 'drained');
    w.close();
  });

  it('gathers for longer while many streams are open', async () => {
    const others = Array.from({ length: 1000 }, () => new WatchWriter(new FakeSink()));
    const sink = new FakeSink();
    const w = new WatchWriter(sink);
    w.push('a\n');
    w.push('b\n');
    await tick(35);
    assert.deepEqual(sink.writes, ['a\n'], 'a thousand streams: more than 20 ms');
    await tick(40);
    assert.deepEqual(sink.writes, ['a\n', 'b\n'], 'at most 50 ms');
    for (const o of others) o.close();
    w.push('c\n');
    w.push('d\n');
    await tick(35);
    assert.deepEqual(sink.writes, ['a\n', 'b\n', 'c\n', 'd\n'], 'alone again: 20 ms');
    w.close();
  });

  it('splits a long backlog into writes of at most 64 KiB, in order, framed by the sink', () => {
    const framed: string[] = [];
    const sink = new FakeSink();
    const write = sink.write.bind(sink);
    Object.assign(sink, {
      frame: (length: number) => ({ head: Buffer.from(`<${length}>`), tail: Buffer.from('|') }),
      write: (chunk: string | Buffer) => {
        framed.push(String(chunk));
        return write(chunk);
      },
    });
    const w = new WatchWriter(sink, 1000);
    const events = Array.from(
      { length: 100 },
      (_, i) => `${String(i).padStart(3, '0')}${'x'.repeat(1400)}\n`,
    );
    for (const e of events) w.push(e);
    w.flush();
    // The first event went at once; the other 99 (about 140 KB) in three pieces.
    assert.equal(framed.length, 4);
    const bodies = framed.map((f) => {
      const m = /^<(\d+)>([\s\S]*)\|$/.exec(f);
      assert.ok(m, 'each write is one framed piece');
      assert.equal(Number(m[1]), Buffer.byteLength(m[2]), 'the frame states the piece length');
      assert.ok(Buffer.byteLength(m[2]) <= 64 * 1024);
      return m[2];
    });
    assert.equal(bodies.join(''), events.join(''));
    w.close();
  });

  it('joins pieces in buffers that are used again once their write has completed', () => {
    const sink = new FakeSink();
    const w = new WatchWriter(sink, 1000);
    const event = (c: string) => `${c.repeat(3000)}\n`;
    const flushPair = (a: string, b: string) => {
      w.push(event(a));
      w.push(event(b));
      w.flush();
      return sink.written[sink.written.length - 1];
    };
    w.push(event('0'));
    assert.equal(sink.written[0].done, undefined, 'one event alone is written as it is, shared');
    const first = flushPair('a', 'b');
    assert.ok(Buffer.isBuffer(first.chunk) && first.done !== undefined, 'a joined piece comes back');
    const second = flushPair('c', 'd');
    assert.ok(Buffer.isBuffer(second.chunk));
    assert.notEqual(second.chunk.buffer, first.chunk.buffer, 'not while the first write is out');
    assert.equal(sink.writes[1], event('a') + event('b'), 'each piece as it was when written');
    first.done?.();
    const third = flushPair('e', 'f');
    assert.ok(Buffer.isBuffer(third.chunk));
    assert.equal(third.chunk.buffer, first.chunk.buffer, "the first piece's memory, written again");
    assert.equal(String(third.chunk), event('e') + event('f'));
    w.close();
  });

  it('collects what its source held back when its turn comes, into the same write', async () => {
    const sink = new FakeSink();
    const w = new WatchWriter(sink, 30);
    const held: string[] = [];
    let collected = 0;
    w.collect = () => {
      collected++;
      assert.equal(w.waiting, false, 'its turn has come');
      for (const c of held.splice(0)) w.push(c);
      assert.equal(w.waiting, false, 'what is collected joins the write under way');
    };
    w.push('a\n');
    assert.equal(w.waiting, false, 'an idle stream writes at once');
    w.push('b\n');
    assert.equal(w.waiting, true);
    held.push('c\n', 'd\n');
    assert.equal(collected, 0, 'nothing is asked for before the turn');
    await tick(60);
    assert.equal(collected, 1);
    assert.deepEqual(sink.writes, ['a\n', 'b\nc\nd\n']);
    assert.equal(w.waiting, false);
    await tick(60);
    assert.equal(collected, 1, 'an idle stream is not asked');
    w.close();
  });

  it('a saturated stream asks its source for more after the write, or once a full socket drains', async () => {
    const sink = new FakeSink();
    const w = new WatchWriter(sink, 5);
    const event = 'e'.repeat(1024);
    let source = 3 * MAX_GATHERED_BYTES;
    let asked = 0;
    // A source that hands events until the writer says it has enough, as the watch handler does.
    const hand = () => {
      while (source > 0) {
        w.push(event);
        source -= event.length;
        if (w.saturated) return;
      }
    };
    w.collect = () => {
      asked++;
      hand();
    };
    hand();
    w.flush();
    assert.ok(
      sink.writes.join('').length <= MAX_GATHERED_BYTES + event.length,
      'one write of at most a gathering',
    );
    await waitUntil(() => source === 0);
    assert.ok(asked >= 2, 'asked again after each write the socket took');
    // Now the socket refuses more with a backlog: nobody asks until it drains.
    source = 2 * MAX_GATHERED_BYTES;
    sink.full = true;
    sink.writableLength = FULL_QUEUED_BYTES;
    const before = asked;
    hand();
    w.flush();
    assert.equal(w.full, true);
    await tick(30);
    assert.equal(asked, before, 'a full socket is not asked for more');
    sink.writableLength = 0;
    sink.drain();
    await waitUntil(() => source === 0);
    w.close();
  });

  it('closes a stream past its budget, or stalled, through onOverflow', async () => {
    for (const limits of [
      { perWatcherBytes: FULL_QUEUED_BYTES - 1, totalBytes: 1 << 30, stallMs: 60_000 },
      { perWatcherBytes: 1 << 30, totalBytes: 1 << 30, stallMs: 10 },
    ]) {
      const budget = new WatchBudget(limits);
      const sink = new FakeSink();
      const w = new WatchWriter(sink, 5, budget);
      let overflowed = 0;
      w.onOverflow = () => overflowed++;
      sink.full = true;
      sink.writableLength = FULL_QUEUED_BYTES;
      w.push('a\n');
      w.flush();
      await waitUntil(() => overflowed === 1);
      assert.equal(budget.closed, 1);
      w.close();
      assert.equal(budget.held, 0, 'closing lets go of what it held');
    }
  });

  it('flush sends what is queued before the interval is up', () => {
    const sink = new FakeSink();
    const w = new WatchWriter(sink, 1000);
    w.push('a\n');
    w.push('b\n');
    w.flush();
    assert.deepEqual(sink.writes, ['a\n', 'b\n']);
    w.close();
  });
});
