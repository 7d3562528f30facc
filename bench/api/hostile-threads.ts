// The hostile scenario's load threads (hostile-worker.mjs), kept from one job to the next like
// load.ts's LoadThreads, which only know the jobs of jobs.ts: these run both those and the hostile
// ones. A kept thread has its code compiled and its heap grown by the time a phase is measured.

import { Worker } from 'node:worker_threads';
import type { HostileJob, HostileResults } from './hostile-jobs.ts';
import type { Protocol } from './http-client.ts';
import type { Job, JobResult } from './jobs.ts';
import { lowerHelperThreads } from './priority.ts';
import type { Endpoint } from './target.ts';

const WORKER = new URL('./hostile-worker.mjs', import.meta.url);

/** What the harness sends a thread: a job to run, or the end of the job with that id. */
export type HostileThreadMessage =
  | { id: number; endpoint: Endpoint; protocol: Protocol; job: Job | HostileJob }
  | { stop: number };

interface Reply {
  id: number;
  ready?: boolean;
  result?: unknown;
  error?: string;
}

export class HostileThreads {
  private idle: { worker: Worker; kind: string }[] = [];
  private readonly all = new Set<Worker>();
  private nextId = 0;

  /**
   * Runs a job in a thread; `onReady` hears its connections are open, and `stop` resolving ends
   * it early (the jobs that can end early: watch, and every hostile job).
   */
  run<J extends HostileJob>(
    e: Endpoint,
    protocol: Protocol,
    job: J,
    onReady?: () => void,
    stop?: Promise<void>,
  ): Promise<HostileResults[J['kind']]>;
  run(
    e: Endpoint,
    protocol: Protocol,
    job: Job,
    onReady?: () => void,
    stop?: Promise<void>,
  ): Promise<JobResult>;
  run(
    e: Endpoint,
    protocol: Protocol,
    job: Job | HostileJob,
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
      const onMessage = (m: Reply) => {
        if (m.id !== id) return;
        if (m.ready === true) return onReady();
        unlisten();
        this.idle.push({ worker, kind: job.kind });
        if (m.error === undefined) res(m.result);
        else rej(new Error(m.error));
      };
      const onError = (err: Error) => {
        unlisten();
        rej(err);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      void stop?.then(() => worker.postMessage({ stop: id } satisfies HostileThreadMessage));
      worker.postMessage({ id, endpoint: e, protocol, job } satisfies HostileThreadMessage);
    });
  }

  async close(): Promise<void> {
    const threads = [...this.all];
    this.all.clear();
    this.idle = [];
    await Promise.all(threads.map((w) => w.terminate()));
  }

  /** An idle thread that last ran this kind of job, another idle one, or a new one. */
  private take(kind: string): Worker {
    const same = this.idle.findIndex((t) => t.kind === kind);
    const found = same === -1 ? this.idle.pop() : this.idle.splice(same, 1)[0];
    if (found !== undefined) return found.worker;
    const worker = new Worker(WORKER);
    worker.on('error', () => this.all.delete(worker));
    this.all.add(worker);
    return worker;
  }
}
