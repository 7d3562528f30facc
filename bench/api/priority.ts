// The load generator yields the CPU to the server it measures. Load and server share this machine's
// two cores, and at equal priority the load's threads took the server's turns whenever both wanted
// a core: with a thousand watchers, in the first second of writes the server's main thread got 48%
// of a core while the load's threads took 77%, its disk-sync completions waited for a CPU, and
// delivery latency measured the scheduler's split rather than the server (niced, the load left the
// server PATCH p50 at 2-3 ms instead of 5-30). A lower priority only matters when both want a core,
// as on one machine; load on other machines would never compete at all. The server, and etcd, keep
// the priority of the harness's main thread.

import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value of the load's threads: the server's threads win a contended core ten to one. */
export const LOAD_NICE = 10;

let helpersLowered = false;

/**
 * Lowers the calling thread (a load worker). On Linux a nice value belongs to a thread, so the
 * harness's main thread, and every process it starts, keeps its own; elsewhere it would be the
 * whole process's, so nothing is changed there.
 */
export function lowerThisThread(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(LOAD_NICE);
  } catch {
    // A container may refuse; the load then runs at the server's priority, as it used to.
  }
}

/**
 * Lowers the harness process's other threads once (V8's compiler and collector helpers, which
 * serve the load workers too), all but the main thread, which starts the servers.
 */
export function lowerHelperThreads(): void {
  if (helpersLowered || process.platform !== 'linux') return;
  helpersLowered = true;
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const task of tasks) {
    const tid = Number(task);
    if (tid === process.pid) continue;
    try {
      setPriority(tid, LOAD_NICE);
    } catch {
      // The thread ended meanwhile, or the container refuses: either way nothing to undo.
    }
  }
}
