// A load thread: runs the jobs it is sent, one at a time, posting each one's result, so the load
// never shares an event loop with the harness (or, for a server we started, with the server). It
// stays for the next job until load.ts ends it: kept from run to run, its code is compiled and its
// heap grown by the time a run is measured.

import { parentPort } from 'node:worker_threads';
import type { Protocol } from './http-client.ts';
import { type Job, type JobResult, runJob } from './jobs.ts';
import type { Endpoint } from './target.ts';

/** What load.ts sends: a job to run, or the end of the job with that id (a watch's stop). */
export type LoadThreadMessage<J = Job> =
  | { id: number; endpoint: Endpoint; protocol: Protocol; job: J }
  | { stop: number };

/** What a load thread posts about the job with that id: its streams are open, its result, or why it failed. */
export interface LoadThreadReply<R = JobResult> {
  id: number;
  ready?: boolean;
  result?: R;
  error?: string;
}

/** The running job's id and its stop. */
let running: { id: number; stop: AbortController } | undefined;

parentPort?.on('message', (m: LoadThreadMessage) => {
  if ('stop' in m) {
    // A stop that arrives after its job ended must not end the next one.
    if (running?.id === m.stop) running.stop.abort();
    return;
  }
  const { id } = m;
  const stop = new AbortController();
  running = { id, stop };
  runJob(
    m.endpoint,
    m.protocol,
    m.job,
    () => parentPort?.postMessage({ id, ready: true } satisfies LoadThreadReply),
    stop.signal,
  )
    .then(
      (result) => parentPort?.postMessage({ id, result } satisfies LoadThreadReply),
      (err: Error) =>
        parentPort?.postMessage({ id, error: err.stack ?? err.message } satisfies LoadThreadReply),
    )
    .finally(() => {
      if (running?.id === id) running = undefined;
    });
});
