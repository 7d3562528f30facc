// The loop every controller runs over its queue: n workers take items one at a time; a handler
// that resolves clears the item's backoff (forget), one that rejects puts it back rate-limited, and
// the item is marked done either way, so a key re-added meanwhile runs again afterwards, never
// concurrently. Aborting the signal shuts the queue down and drops what is still queued; the call
// resolves once every worker has finished its current item.

import type { RateLimitingQueue } from './rate-limiting-queue.ts';

export interface RunWorkersOptions<T> {
  /** Told of each failure before the item is re-queued; `requeues` counts earlier failures. */
  onError?(item: T, err: unknown, requeues: number): void;
  /**
   * After this many failures an item is dropped (forgotten, not re-queued), as controllers that
   * give up do; unbounded when absent.
   */
  maxRetries?: number;
}

export async function runWorkers<T>(
  queue: RateLimitingQueue<T>,
  workers: number,
  handler: (item: T, signal: AbortSignal) => Promise<void>,
  signal: AbortSignal,
  opts: RunWorkersOptions<T> = {},
): Promise<void> {
  const stop = () => queue.shutDown();
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });

  const worker = async (): Promise<void> => {
    for (;;) {
      const next = await queue.get();
      if (next.shutdown) return;
      const item = next.item;
      // Once stopped, the backlog is dropped rather than worked off: a controller that lost its
      // lease must stop writing promptly.
      if (signal.aborted) {
        queue.done(item);
        return;
      }
      try {
        await handler(item, signal);
        queue.forget(item);
      } catch (err) {
        const requeues = queue.numRequeues(item);
        try {
          opts.onError?.(item, err, requeues);
        } catch {
          // A failing error reporter must not stop the worker.
        }
        if (opts.maxRetries !== undefined && requeues >= opts.maxRetries) queue.forget(item);
        else queue.addRateLimited(item);
      } finally {
        queue.done(item);
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.max(1, workers) }, worker));
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
