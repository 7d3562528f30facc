// Large bodies take long, synchronous phases to handle (parse, check against the schema, merge,
// record field ownership, store). Between phases a handler of a large body yields to the event
// loop, so that other requests' I/O and timers run in between instead of waiting for all of them:
// the longest stall a request causes is then its longest phase, not their sum.

/** Bodies at least this large yield between phases; a small body's phases are short anyway. */
export const BREATHE_FROM_BYTES = 256 * 1024;

/** Resolves on a later turn of the event loop when `bodyBytes` is large, at once otherwise. */
export function breathe(bodyBytes: number): Promise<void> {
  if (bodyBytes < BREATHE_FROM_BYTES) return Promise.resolve();
  return new Promise((resolve) => setImmediate(resolve));
}
