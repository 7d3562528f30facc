// The load generator's priority: a worker lowers only itself, the helpers are lowered once, and the
// main thread (which starts servers) and any process it starts keep their priority. Where a nice
// value belongs to the whole process (not Linux), nothing is changed at all.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { LOAD_NICE, lowerHelperThreads, lowerThisThread } from './priority.ts';

/** The nice value in a /proc stat line (its field 19). */
const niceIn = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);

/** A thread of this process's nice value. */
const niceOf = (tid: number) => niceIn(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'));

/** A thread's nice value, or undefined when it ended after the task list was read. */
function niceOfLiving(tid: number): number | undefined {
  try {
    return niceOf(tid);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

describe('load generator priority', () => {
  if (process.platform !== 'linux') {
    it('changes nothing where a nice value belongs to the whole process', () => {
      const before = getPriority();
      lowerThisThread();
      lowerHelperThreads();
      assert.equal(getPriority(), before);
    });
    return;
  }

  it('lowers a worker thread and nothing else', async () => {
    const before = niceOf(process.pid);
    const stat = await new Promise<string>((resolve, reject) => {
      // The way the load workers start (worker.mjs): TypeScript loader first, then the module.
      const w = new Worker(
        `(async () => {
           const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))});
           register();
           const { lowerThisThread } = await import(${JSON.stringify(new URL('./priority.ts', import.meta.url).href)});
           lowerThisThread();
           const stat = require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8');
           require('node:worker_threads').parentPort.postMessage(stat);
         })();`,
        { eval: true },
      );
      // Resolved only once the worker's thread has ended, so that it is not among the helper
      // threads the next case lists.
      w.once('message', (text: string) => {
        w.terminate().then(() => resolve(text), reject);
      });
      w.once('error', reject);
    });
    assert.equal(niceIn(stat), LOAD_NICE);
    assert.equal(niceOf(process.pid), before, 'the main thread keeps its priority');
  });

  it('lowers the helper threads once, leaving the main thread and the processes it starts', () => {
    const before = niceOf(process.pid);
    lowerHelperThreads();
    const helpers = readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => tid !== process.pid)
      .map((tid) => ({ tid, nice: niceOfLiving(tid) }))
      .filter(({ nice }) => nice !== undefined);
    assert.ok(helpers.length > 0);
    for (const { tid, nice } of helpers) assert.equal(nice, LOAD_NICE, `thread ${tid}`);
    assert.equal(niceOf(process.pid), before);
    // A server the harness starts inherits the main thread's priority.
    const child = execFileSync('sh', ['-c', 'cut -d" " -f19 /proc/self/stat'], { encoding: 'utf8' });
    assert.equal(Number(child.trim()), before);
  });
});
