// A hostile-scenario load thread: runs the API jobs of jobs.ts (watch, write, create) and the
// hostile jobs of hostile-jobs.ts alike, one at a time, posting each one's result, so the load
// never shares an event loop with the harness or the server. The messages are worker-main.ts's.

import { parentPort } from 'node:worker_threads';
import { isHostileJob, runHostileJob } from './hostile-jobs.ts';
import type { HostileThreadMessage } from './hostile-threads.ts';
import { runJob } from './jobs.ts';
import type { LoadThreadReply } from './worker-main.ts';

/** The running job's id and its stop. */
let running: { id: number; stop: AbortController } | undefined;

parentPort?.on('message', (m: HostileThreadMessage) => {
  if ('stop' in m) {
    // A stop that arrives after its job ended must not end the next one.
    if (running?.id === m.stop) running.stop.abort();
    return;
  }
  const { id, job } = m;
  const stop = new AbortController();
  running = { id, stop };
  const ready = () => parentPort?.postMessage({ id, ready: true } satisfies LoadThreadReply);
  const work: Promise<unknown> = isHostileJob(job)
    ? runHostileJob(m.endpoint, job, ready, stop.signal)
    : runJob(m.endpoint, m.protocol, job, ready, stop.signal);
  work
    .then(
      (result) => parentPort?.postMessage({ id, result }),
      (err: Error) =>
        parentPort?.postMessage({ id, error: err.stack ?? err.message } satisfies LoadThreadReply),
    )
    .finally(() => {
      if (running?.id === id) running = undefined;
    });
});
