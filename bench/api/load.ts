// Runs jobs in worker threads, all at once, and merges what they measured.

import { Worker } from 'node:worker_threads';
import type { Protocol } from './http-client.ts';
import type { Job, JobResult } from './jobs.ts';
import { lowerHelperThreads } from './priority.ts';
import type { Endpoint } from './target.ts';

const WORKER = new URL('./worker.mjs', import.meta.url);

/**
 * Runs a job in a worker, at the load generator's lower priority (priority.ts); `onReady` hears a
 * watch job's streams are open, and `stop` resolving ends a watch job early.
 */
export function runInWorker(
  endpoint: Endpoint,
  protocol: Protocol,
  job: Job,
  onReady: () => void = () => {},
  stop?: Promise<void>,
): Promise<JobResult> {
  lowerHelperThreads();
  return new Promise((res, rej) => {
    const w = new Worker(WORKER, { workerData: { endpoint, protocol, job } });
    void stop?.then(() => w.postMessage({ stop: true }));
    w.on('message', (m: { ready?: boolean; result?: JobResult; error?: string }) => {
      if (m.ready === true) {
        onReady();
        return;
      }
      void w.terminate();
      if (m.result !== undefined) res(m.result);
      else rej(new Error(m.error));
    });
    w.once('error', rej);
  });
}

export function merge(results: JobResult[]): JobResult {
  return {
    latencies: results.flatMap((r) => r.latencies),
    ok: results.reduce((a, r) => a + r.ok, 0),
    failed: results.reduce((a, r) => a + r.failed, 0),
    retries: results.reduce((a, r) => a + r.retries, 0),
    bytes: results.reduce((a, r) => a + r.bytes, 0),
    dropped: results.reduce((a, r) => a + r.dropped, 0),
    elapsedMs: Math.max(...results.map((r) => r.elapsedMs)),
    // Kept beside the latencies only when every result has them, or the two would not line up.
    ...(results.every((r) => r.sequences !== undefined)
      ? { sequences: results.flatMap((r) => r.sequences ?? []) }
      : {}),
  };
}

/** Splits `total` into `parts` nearly equal whole shares. */
export function shares(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}

/** A percentile of latencies (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
