// Requests that are not long-running get a deadline (upstream's --request-timeout, 60 s): past it
// the client gets a 504 Timeout and the request's signal aborts. Watches are exempt.

import { timeout } from '../../machinery/status.ts';
import type { Filter } from '../context.ts';
import { writeError } from '../respond.ts';

export function requestTimeout(ms: number): Filter {
  return async (ctx, next) => {
    if (ctx.info.verb === 'watch') return next();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), ms);
      timer.unref();
    });
    const done = next().then(() => 'done' as const);
    try {
      const first = await Promise.race([done, expired]);
      if (first === 'expired') {
        writeError(
          ctx,
          timeout('request did not complete within requested timeout - context deadline exceeded', 0),
        );
        // The handler may still be running; its late writes are ignored once headers are out.
        done.catch(() => {});
      }
    } finally {
      clearTimeout(timer);
    }
  };
}
