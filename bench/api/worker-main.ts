// A load process: runs one job in a worker thread and posts its result, so the load never shares an
// event loop with the harness (or, for a server we started, with the server).

import { parentPort, workerData } from 'node:worker_threads';
import type { Protocol } from './http-client.ts';
import { type Job, runJob } from './jobs.ts';
import type { Endpoint } from './target.ts';

const { endpoint, protocol, job } = workerData as { endpoint: Endpoint; protocol: Protocol; job: Job };
const stop = new AbortController();
parentPort?.on('message', (m: { stop?: boolean }) => {
  if (m.stop === true) stop.abort();
});
runJob(endpoint, protocol, job, () => parentPort?.postMessage({ ready: true }), stop.signal).then(
  (result) => parentPort?.postMessage({ result }),
  (err: Error) => parentPort?.postMessage({ error: err.stack ?? err.message }),
);
