import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runLoad } from './timing.ts';

describe('runLoad', () => {
  it('runs exactly `total` operations with unique sequence numbers', async () => {
    const seen: number[] = [];
    const r = await runLoad({
      concurrency: 8,
      total: 100,
      op: async (seq) => {
        await sleep(0);
        seen.push(seq);
      },
    });
    assert.equal(r.ops, 100);
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      Array.from({ length: 100 }, (_, i) => i),
    );
  });

  it('keeps at most `concurrency` operations in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    await runLoad({
      concurrency: 4,
      total: 40,
      op: async () => {
        peak = Math.max(peak, ++inFlight);
        await sleep(1);
        inFlight--;
      },
    });
    assert.equal(peak, 4);
  });

  it('stops issuing after the duration', async () => {
    const r = await runLoad({ concurrency: 2, durationMs: 50, op: () => sleep(5) });
    assert.ok(r.elapsedMs >= 50 && r.elapsedMs < 500, `elapsed ${r.elapsedMs}`);
    assert.ok(r.ops > 0 && r.opsPerSec > 0);
  });

  it('rethrows the first failure and stops the other workers', async () => {
    let calls = 0;
    await assert.rejects(
      runLoad({
        concurrency: 4,
        total: 1000,
        op: async (seq) => {
          calls++;
          await sleep(1);
          if (seq === 5) throw new Error('boom');
        },
      }),
      /boom/,
    );
    assert.ok(calls < 100, `calls ${calls}`);
  });
});
