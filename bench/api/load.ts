// Runs jobs in worker threads (kept from job to job, or one per job) and merges what they measured.

import { Worker } from 'node:worker_threads';
import type { Protocol } from './http-client.ts';
import type { Job, JobResult } from './jobs.ts';
import { lowerHelperThreads } from './priority.ts';
import type { Endpoint } from './target.ts';
import type { LoadThreadMessage, LoadThreadReply } from './worker-main.ts';

const WORKER = new URL('./worker.mjs', import.meta.url);

/**
 * Load threads kept from one job to the next, at the load generator's lower priority
 * (priority.ts). A fresh thread spends its first second compiling its code and growing its heap:
 * measured with a thousand watchers, fresh watch threads each run took 20-30k page faults and
 * waited for a CPU most of that second, and the run's delivery p99 came out at 76-376 ms where
 * the same server with kept threads gave 65-113. Each job opens its own connections all the same.
 * close() ends the threads; until then they keep the process alive.
 */
export class LoadThreads {
  /** Threads waiting for a job, with the kind of job each ran last. */
  private idle: { worker: Worker; kind: string }[] = [];
  private readonly all = new Set<Worker>();
  private nextId = 0;

  /** `entry` is the threads' script: worker.mjs runs jobs.ts's jobs; others may run more kinds. */
  constructor(private readonly entry: URL = WORKER) {}

  /** Runs a job; `onReady` hears a watch job's streams are open, and `stop` resolving ends it early. */
  run(
    endpoint: Endpoint,
    protocol: Protocol,
    job: Job,
    onReady: () => void = () => {},
    stop?: Promise<void>,
  ): Promise<JobResult> {
    return this.dispatch(endpoint, protocol, job, onReady, stop) as Promise<JobResult>;
  }

  /** run() for any job the entry script knows, its result as the script sends it. */
  protected dispatch(
    endpoint: Endpoint,
    protocol: Protocol,
    job: { kind: string },
    onReady: () => void = () => {},
    stop?: Promise<void>,
  ): Promise<unknown> {
    lowerHelperThreads();
    const worker = this.take(job.kind);
    const id = this.nextId++;
    return new Promise((res, rej) => {
      const unlisten = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const onMessage = (m: LoadThreadReply<unknown>) => {
        if (m.id !== id) return;
        if (m.ready === true) {
          onReady();
          return;
        }
        unlisten();
        this.idle.push({ worker, kind: job.kind });
        if (m.error === undefined) res(m.result);
        else rej(new Error(m.error));
      };
      // The thread leaves the pool through the listener take() gave it.
      const onError = (err: Error) => {
        unlisten();
        rej(err);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      void stop?.then(() => worker.postMessage({ stop: id } satisfies LoadThreadMessage<{ kind: string }>));
      worker.postMessage({ id, endpoint, protocol, job } satisfies LoadThreadMessage<{ kind: string }>);
    });
  }

  /** Threads alive, running or idle. */
  get size(): number {
    return this.all.size;
  }

  /** Ends every thread. */
  async close(): Promise<void> {
    const threads = [...this.all];
    this.all.clear();
    this.idle = [];
    await Promise.all(threads.map((w) => w.terminate()));
  }

  /** An idle thread that last ran this kind of job (its code for it compiled), another, or a new one. */
  private take(kind: string): Worker {
    const same = this.idle.findIndex((t) => t.kind === kind);
    const found = same === -1 ? this.idle.pop() : this.idle.splice(same, 1)[0];
    if (found !== undefined) return found.worker;
    const worker = new Worker(this.entry);
    // A thread that fails leaves the pool (its job, if it had one, is rejected by run()).
    worker.on('error', () => this.all.delete(worker));
    this.all.add(worker);
    return worker;
  }
}

/** Runs one job in a thread of its own, ended with the job. */
export async function runInWorker(...args: Parameters<LoadThreads['run']>): Promise<JobResult> {
  const threads = new LoadThreads();
  try {
    return await threads.run(...args);
  } finally {
    void threads.close();
  }
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
