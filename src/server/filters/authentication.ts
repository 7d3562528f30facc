// Who is asking: the authenticator chain decides; a bad credential (or none, with anonymous
// access off) is a 401 before anything else runs. Every attempt is counted and timed, as upstream's
// filter does, in the chain's metrics (when the server gave it a registry).

import type { AuthnChain } from '../../auth/authn/union.ts';
import { unauthorized } from '../../machinery/status.ts';
import type { Filter } from '../context.ts';
import { peerCertificateOf } from '../listener.ts';

export function authentication(chain: AuthnChain): Filter {
  const metrics = chain.metrics;
  return async (ctx, next) => {
    const started = metrics === undefined ? 0 : performance.now();
    const outcome = await chain.authenticate({
      headers: ctx.req.headers,
      rawHeaders: ctx.req.rawHeaders,
      peerCertificate: peerCertificateOf(ctx.req),
      path: pathOf(ctx.url),
    });
    if (metrics !== undefined) {
      const seconds = (performance.now() - started) / 1000;
      if (outcome.ok) metrics.record('success', seconds, outcome.user.username);
      else metrics.record(outcome.errored ? 'error' : 'failure', seconds);
    }
    if (!outcome.ok) throw unauthorized('Unauthorized');
    ctx.user = outcome.user;
    await next();
  };
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
