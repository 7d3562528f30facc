// The hostile scenario's load threads: load.ts's LoadThreads on hostile-worker.mjs, which runs the
// jobs of jobs.ts and the hostile ones. A kept thread has its code compiled and its heap grown by
// the time a phase is measured.

import type { HostileJob, HostileResults } from './hostile-jobs.ts';
import type { Protocol } from './http-client.ts';
import type { Job, JobResult } from './jobs.ts';
import { LoadThreads } from './load.ts';
import type { Endpoint } from './target.ts';
import type { LoadThreadMessage } from './worker-main.ts';

const WORKER = new URL('./hostile-worker.mjs', import.meta.url);

/** What the harness sends a thread: a job to run, or the end of the job with that id. */
export type HostileThreadMessage = LoadThreadMessage<Job | HostileJob>;

export class HostileThreads extends LoadThreads {
  constructor() {
    super(WORKER);
  }

  /**
   * Runs a job in a thread; `onReady` hears its connections are open, and `stop` resolving ends
   * it early (the jobs that can end early: watch, and every hostile job).
   */
  override run<J extends HostileJob>(
    e: Endpoint,
    protocol: Protocol,
    job: J,
    onReady?: () => void,
    stop?: Promise<void>,
  ): Promise<HostileResults[J['kind']]>;
  override run(
    e: Endpoint,
    protocol: Protocol,
    job: Job,
    onReady?: () => void,
    stop?: Promise<void>,
  ): Promise<JobResult>;
  override run(
    e: Endpoint,
    protocol: Protocol,
    job: Job | HostileJob,
    onReady?: () => void,
    stop?: Promise<void>,
  ): Promise<unknown> {
    return this.dispatch(e, protocol, job, onReady, stop);
  }
}
