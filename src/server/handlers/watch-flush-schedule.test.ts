// The flush schedule: streams write in order of their due times, from one timer; a slice ends once
// it has written for its budget (a shorter one while storage work is awaited) and the rest follow
// after the loop has polled; only a turn's worth of streams may write at once from a push; a
// removed stream never writes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitUntil } from '../testing/wait-for.ts';
import { FlushSchedule, type Scheduled } from './watch-flush-schedule.ts';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
const turn = () => new Promise((r) => setImmediate(r));

/**
 * Numbers the event loop's turns while it runs: writes made in one slice of the schedule see the
 * same number, and a slice that ended and went on after the loop polled sees a later one. Slices
 * are told apart by this, not by timing, so a busy machine's delays cannot blur them.
 */
function loopTurns(): { current(): number; stop(): void } {
  let n = 0;
  let on = true;
  const next = () => {
    if (!on) return;
    n++;
    setImmediate(next);
  };
  setImmediate(next);
  return {
    current: () => n,
    stop: () => {
      on = false;
    },
  };
}

interface Write {
  name: string;
  turn: number;
}

/** A stream that records when it wrote, and spins for `costMs` as if writing took that long. */
function stream(name: string, log: string[], costMs = 0, writes?: Write[], turns?: () => number): Scheduled {
  return {
    due: 0,
    slot: -1,
    write() {
      log.push(name);
      writes?.push({ name, turn: turns?.() ?? 0 });
      const until = performance.now() + costMs;
      while (performance.now() < until) {
        // busy, as a TLS write is
      }
    },
  };
}

/**
 * Adds six streams due now whose writes take 2 ms each; resolves, once all have written, with how
 * many the schedule's first slice wrote and the order they all wrote in.
 */
async function sixCostlyWrites(s: FlushSchedule): Promise<{ first: number; log: string[] }> {
  const log: string[] = [];
  const writes: Write[] = [];
  const turns = loopTurns();
  const now = performance.now();
  for (let i = 0; i < 6; i++) s.add(stream(`s${i}`, log, 2, writes, turns.current), now + i / 100);
  await waitUntil(() => log.length === 6, 'all six writes');
  turns.stop();
  const first = writes.filter((w) => w.turn === writes[0].turn).length;
  return { first, log };
}

describe('watch flush schedule', () => {
  it('writes streams in the order they come due, each once, whatever the order they were added', async () => {
    const s = new FlushSchedule();
    const log: string[] = [];
    const now = performance.now();
    const dues = [40, 10, 30, 0, 20, 50, 5, 45];
    for (const [i, d] of dues.entries()) s.add(stream(`s${d}`, log), now + d + i / 100);
    assert.equal(s.size, dues.length);
    await waitUntil(() => log.length === dues.length, 'every stream to write');
    assert.deepEqual(
      log,
      [...dues].sort((a, b) => a - b).map((d) => `s${d}`),
    );
    assert.equal(s.size, 0);
  });

  it('does not write a stream before it is due', async () => {
    const s = new FlushSchedule();
    const log: string[] = [];
    s.add(stream('late', log), performance.now() + 40);
    // A timer set for 40 ms cannot fire within 15 (it may only fire later on a busy machine).
    await tick(15);
    assert.deepEqual(log, []);
    await waitUntil(() => log.length > 0, 'the late stream to write');
    assert.deepEqual(log, ['late']);
  });

  it('ends a slice once it has written for its budget and goes on after the loop polls', async () => {
    const { first, log } = await sixCostlyWrites(new FlushSchedule(5));
    // Each write takes at least 2 ms: the slice stopped after the write that passed 5 ms (three
    // writes, fewer if the process was held up in between).
    assert.ok(first >= 1 && first <= 3, `first slice wrote ${first}`);
    assert.deepEqual(log, ['s0', 's1', 's2', 's3', 's4', 's5']);
  });

  it('ends a slice after the short budget while something waits on the loop, and not otherwise', async () => {
    let waiting = true;
    const s = new FlushSchedule(1000, 32, () => waiting, 3);
    const awaited = await sixCostlyWrites(s);
    // Each write takes at least 2 ms: the slice stopped after the write that passed 3 ms.
    assert.ok(awaited.first >= 1 && awaited.first <= 2, `first slice wrote ${awaited.first}`);
    assert.equal(awaited.log.length, 6);

    waiting = false;
    const idle = await sixCostlyWrites(s);
    assert.equal(idle.first, 6, 'with nothing waiting, the whole budget is used');
  });

  it('lets only a turn’s worth of due streams write at once, and none while others are due', async () => {
    const s = new FlushSchedule(16, 3);
    const now = performance.now();
    assert.deepEqual(
      [1, 2, 3, 4, 5].map(() => s.mayWriteNow(now)),
      [true, true, true, false, false],
    );
    await turn();
    await turn();
    assert.equal(s.mayWriteNow(performance.now()), true, 'a new turn has a new budget');
    s.add(stream('due', []), performance.now() - 1);
    assert.equal(s.mayWriteNow(performance.now()), false, 'another stream is waiting to write');
  });

  it('never writes a stream that was removed, and re-adding moves it', async () => {
    const s = new FlushSchedule();
    const log: string[] = [];
    const a = stream('a', log);
    const b = stream('b', log);
    const c = stream('c', log);
    const now = performance.now();
    s.add(a, now + 5);
    s.add(b, now + 10);
    s.add(c, now + 15);
    s.remove(b);
    assert.equal(b.slot, -1);
    s.add(a, now + 20);
    await waitUntil(() => s.size === 0, 'the schedule to empty');
    assert.deepEqual(log, ['c', 'a']);
  });
});
