// Load generation shared by the scenarios: N async loops in one process, each awaiting its own
// operation before issuing the next, which is how concurrent API requests reach storage.

import { performance } from 'node:perf_hooks';

export function nowMs(): number {
  return performance.now();
}

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = nowMs();
  const value = await fn();
  return { value, ms: nowMs() - start };
}

export interface LoadOptions {
  concurrency: number;
  /** Stop issuing new operations after this long (operations in flight still finish and count). */
  durationMs?: number;
  /** Stop after this many operations in total. At least one of durationMs and total is required. */
  total?: number;
  /** One operation; `seq` is unique across all workers of this call, starting at 0. */
  op: (seq: number, worker: number) => Promise<unknown>;
}

export interface LoadResult {
  ops: number;
  elapsedMs: number;
  opsPerSec: number;
}

/**
 * Runs `op` from `concurrency` loops until the duration or count is used up. The first failure stops
 * every loop and is rethrown: a benchmark that silently drops errors reports fantasy numbers.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const { concurrency, durationMs, total, op } = opts;
  if (!(concurrency >= 1)) throw new RangeError(`concurrency must be at least 1, got ${concurrency}`);
  if (durationMs === undefined && total === undefined) throw new RangeError('need durationMs or total');
  const start = nowMs();
  const deadline = durationMs === undefined ? Number.POSITIVE_INFINITY : start + durationMs;
  const limit = total ?? Number.POSITIVE_INFINITY;
  let next = 0;
  let done = 0;
  let failure: { error: unknown } | undefined;

  const worker = async (w: number) => {
    while (failure === undefined && next < limit && nowMs() < deadline) {
      const seq = next++;
      try {
        await op(seq, w);
      } catch (error) {
        failure ??= { error };
        return;
      }
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsedMs = nowMs() - start;
  if (failure !== undefined) throw failure.error;
  return { ops: done, elapsedMs, opsPerSec: elapsedMs > 0 ? (done * 1000) / elapsedMs : 0 };
}
