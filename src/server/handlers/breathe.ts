// Large bodies take long, synchronous phases to handle (parse, check against the schema, merge,
// record field ownership, store). Between phases a handler of a large body yields to the event
// loop, so that other requests' I/O and timers run in between instead of waiting for all of them:
// the longest stall a request causes is then its longest phase, not their sum.

import type { FieldManager } from '../../apply/index.ts';
import type { WriteOptions } from '../../registry/generic-store.ts';

/** Bodies at least this large yield between phases; a small body's phases are short anyway. */
export const BREATHE_FROM_BYTES = 256 * 1024;

/** Resolves on a later turn of the event loop when `bodyBytes` is large, at once otherwise. */
export function breathe(bodyBytes: number): Promise<void> {
  if (bodyBytes < BREATHE_FROM_BYTES) return Promise.resolve();
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The pause between phases of the write a request asks for: a turn of the event loop when its
 * body was large, nothing otherwise. Handed to the registry (WriteOptions.pause) and the field
 * manager, whose phases (tracking, validation, storage) run after the handler's own.
 */
export function pacer(ctx: { bodyBytes?: number }): () => Promise<void> {
  return () => breathe(ctx.bodyBytes ?? 0);
}

const RESOLVED = Promise.resolve();
const noPause = () => RESOLVED;

/**
 * A write's field tracking and pauses, paced by the request's body size (see pacer). A small body,
 * nearly every write, keeps the plain synchronous tracking and pauses that cost nothing.
 */
export function pacedTracking(
  ctx: { bodyBytes?: number },
  fields: FieldManager,
  manager: string,
): Required<Pick<WriteOptions, 'track' | 'pause'>> {
  if ((ctx.bodyBytes ?? 0) < BREATHE_FROM_BYTES) {
    return { pause: noPause, track: (live, next) => fields.update(live, next, manager) };
  }
  const pause = pacer(ctx);
  return { pause, track: (live, next) => fields.updatePaced(live, next, manager, pause) };
}
