// Storage work that a client is waiting for and that finishes through the event loop: a commit due
// later in this turn, a WAL sync running in the thread pool, a request to etcd. Counted for the
// whole process, because the event loop is the process's. Whoever fills the loop with long blocks
// of its own work (the watch writes, server/handlers/watch-flush-schedule.ts) keeps those blocks
// short while anything is counted here, so that the answer is handled after a short block rather
// than a long one: with a thousand watchers, a write's way through the loop (its commit, its sync,
// its watch event) waited behind one 16 ms block of watch writes at each step.

let awaited = 0;

/**
 * Counts one piece of work from now until the returned function is called; calls after the first
 * do nothing, so it may be called on every path out.
 */
export function storageWorkBegins(): () => void {
  awaited++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    awaited--;
  };
}

/** Whether any storage work a client waits for is under way. */
export function storageWorkAwaited(): boolean {
  return awaited > 0;
}
