// The load generator's priority: a worker lowers only itself, the helpers are lowered once, and the
// main thread (which starts servers) and any process it starts keep their priority.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { LOAD_NICE, lowerHelperThreads } from './priority.ts';

/** A thread's nice value, from /proc (field 19 of its stat line). */
function niceOf(tid: number | 'thread-self'): number {
  const path = tid === 'thread-self' ? '/proc/thread-self/stat' : `/proc/self/task/${tid}/stat`;
  const stat = readFileSync(path, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

const linux = process.platform === 'linux';

describe('load generator priority', { skip: !linux && 'nice values are per thread on Linux only' }, () => {
  it('lowers a worker thread and nothing else', async () => {
    const before = niceOf(process.pid);
    const seen = await new Promise<number>((resolve, reject) => {
      // The way the load workers start (worker.mjs): TypeScript loader first, then the module.
      const w = new Worker(
        `(async () => {
           const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))});
           register();
           const { lowerThisThread } = await import(${JSON.stringify(new URL('./priority.ts', import.meta.url).href)});
           lowerThisThread();
           const s = require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8');
           require('node:worker_threads').parentPort.postMessage(Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[16]));
         })();`,
        { eval: true },
      );
      w.once('message', (n: number) => {
        void w.terminate();
        resolve(n);
      });
      w.once('error', reject);
    });
    assert.equal(seen, LOAD_NICE);
    assert.equal(niceOf(process.pid), before, 'the main thread keeps its priority');
  });

  it('lowers the helper threads once, leaving the main thread and the processes it starts', () => {
    const before = niceOf(process.pid);
    lowerHelperThreads();
    const helpers = readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => tid !== process.pid);
    assert.ok(helpers.length > 0);
    for (const tid of helpers) assert.equal(niceOf(tid), LOAD_NICE, `thread ${tid}`);
    assert.equal(niceOf(process.pid), before);
    // A server the harness starts inherits the main thread's priority.
    const child = execFileSync('sh', ['-c', 'cut -d" " -f19 /proc/self/stat'], { encoding: 'utf8' });
    assert.equal(Number(child.trim()), before);
  });
});
