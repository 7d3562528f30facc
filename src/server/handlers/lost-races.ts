// Apply and subresource views read the object, change it and write it back at the resourceVersion
// they read. When another writer got there first, upstream re-applies the change to the newer
// object inside its storage retry loop, with no limit of its own: a client that pinned no
// resourceVersion never sees that race as a 409, however many writers share the object. These
// handlers retry in the same spirit, for as long as the request lives. (Patch runs inside the
// store's own update loop, GenericStore.patch, and needs no retry here.)

import type { RequestContext } from '../context.ts';

/**
 * A guard against a conflict that is not a race at all (a bug would otherwise spin until the
 * request times out): every lost race means another write went through, so real contention ends
 * long before this many.
 */
const MAX_ATTEMPTS = 1000;

/** Whether a write that lost a race on its `attempt`-th try should read again and retry. */
export function retryLostRace(ctx: RequestContext, attempt: number): boolean {
  return attempt < MAX_ATTEMPTS && !ctx.signal.aborted;
}
