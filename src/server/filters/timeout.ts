// Requests that are not long-running get a deadline (upstream's --request-timeout, 60 s): past it
// the client gets a 504 Timeout and the request's signal aborts. Watches are exempt. The deadline
// covers reading the body too: a body still arriving when it passes (trickled byte by byte) is cut
// off once the answer is out, so that the handler reading it fails instead of waiting for ever and
// the connection is not held by a client that never finishes.

import { constants as h2 } from 'node:http2';
import { timeout } from '../../machinery/status.ts';
import type { Filter, RequestContext } from '../context.ts';
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
        const reading = !ctx.req.complete;
        // An HTTP/1.1 connection with part of a body unread cannot carry another request.
        if (reading && ctx.req.httpVersionMajor === 1 && !ctx.res.headersSent) {
          ctx.res.setHeader('connection', 'close');
        }
        writeError(
          ctx,
          timeout('request did not complete within requested timeout - context deadline exceeded', 0),
        );
        if (reading) cutOffBody(ctx);
        // The handler may still be running; its late writes are ignored once headers are out.
        done.catch(() => {});
      }
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Once the answer is out (or could not go out), stops reading the request's body. */
function cutOffBody(ctx: RequestContext): void {
  const failReader = () => {
    if (!ctx.req.complete) ctx.req.destroy(new Error('request body not received within the request timeout'));
  };
  if (ctx.req.httpVersionMajor === 2) {
    // A reset with NO_ERROR after a complete answer tells the client to stop sending; Node sends
    // it once the answer is written. The reader waiting on the body fails when the stream closes.
    const stream = ctx.res.stream;
    if (stream.closed || stream.destroyed) failReader();
    else {
      stream.once('close', failReader);
      stream.close(h2.NGHTTP2_NO_ERROR);
    }
    return;
  }
  // HTTP/1.1: destroying the request closes the connection, which the answer said it would.
  if (ctx.res.writableFinished) failReader();
  else {
    ctx.res.once('finish', failReader);
    ctx.res.once('close', failReader);
  }
}
