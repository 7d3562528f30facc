// Who is asking: the authenticator chain decides; a bad credential (or none, with anonymous
// access off) is a 401 before anything else runs.

import type { AuthnChain } from '../../auth/authn/union.ts';
import { unauthorized } from '../../machinery/status.ts';
import type { Filter } from '../context.ts';
import { peerCertificateOf } from '../listener.ts';

export function authentication(chain: AuthnChain): Filter {
  return async (ctx, next) => {
    const outcome = await chain.authenticate({
      headers: ctx.req.headers,
      rawHeaders: ctx.req.rawHeaders,
      peerCertificate: peerCertificateOf(ctx.req),
      path: pathOf(ctx.url),
    });
    if (!outcome.ok) throw unauthorized('Unauthorized');
    ctx.user = outcome.user;
    await next();
  };
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
