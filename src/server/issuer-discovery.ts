// Service account issuer discovery: the OpenID provider configuration and the JWKS of the keys that
// verify service account tokens, so that other systems can verify our tokens as OIDC ID tokens.
// As upstream: served only when the issuer is an https URL without query or fragment (otherwise a
// relying party could not use it, and upstream logs and skips the endpoints), `jwks_uri` is
// --service-account-jwks-uri or derived from the server's external address, and both documents
// may be cached for an hour. Who may read them is the authorizer's business (upstream grants them
// to service accounts; the default policy here lets any authenticated user read them).

import type { VerifyingKey } from '../auth/authn/keys.ts';
import type { Handler, RequestContext } from './context.ts';
import { responseGone } from './respond.ts';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
const CACHE_CONTROL = 'public, max-age=3600';
const JWKS_MEDIA_TYPE = 'application/jwk-set+json';

export interface IssuerDiscoveryOptions {
  issuer: string;
  /** --service-account-jwks-uri; derived from `externalAddress` when unset. */
  jwksUri?: string;
  /** `host:port` others reach this server at; known once the server listens. */
  externalAddress: () => string;
  keys: readonly VerifyingKey[];
}

/** Why the issuer cannot be published, or undefined when it can (upstream's rules and words). */
export function issuerProblem(issuer: string): string | undefined {
  if (!URL.canParse(issuer)) return `issuer URL must use https scheme, got: ${issuer}`;
  const u = new URL(issuer);
  if (u.protocol !== 'https:') return `issuer URL must use https scheme, got: ${issuer}`;
  if (u.search !== '') return `issuer URL may not include a query, got: ${issuer}`;
  if (u.hash !== '') return `issuer URL may not include a fragment, got: ${issuer}`;
  return undefined;
}

/** A key as the JWKS lists it, members in the order upstream's encoder writes them. */
export function publicJwk(k: VerifyingKey): Record<string, unknown> {
  const jwk = k.key.export({ format: 'jwk' }) as Record<string, string>;
  if (jwk.kty === 'EC') {
    return { use: 'sig', kty: 'EC', kid: k.kid, crv: jwk.crv, alg: k.alg, x: jwk.x, y: jwk.y };
  }
  return { use: 'sig', kty: jwk.kty, kid: k.kid, alg: k.alg, n: jwk.n, e: jwk.e };
}

export function openIdConfiguration(o: IssuerDiscoveryOptions): Record<string, unknown> {
  const jwksUri =
    o.jwksUri !== undefined && o.jwksUri !== '' ? o.jwksUri : `https://${o.externalAddress()}${JWKS_PATH}`;
  return {
    issuer: o.issuer,
    jwks_uri: jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...new Set(o.keys.map((k) => k.alg))].sort(),
  };
}

export function jwks(keys: readonly VerifyingKey[]): Record<string, unknown> {
  return { keys: keys.map(publicJwk) };
}

/**
 * `next` with the two discovery documents in front of it; `next` alone when the issuer cannot be
 * published (the reason goes to `log`).
 */
export function withIssuerDiscovery(
  next: Handler,
  o: IssuerDiscoveryOptions,
  log: (m: string) => void,
): Handler {
  const problem = issuerProblem(o.issuer);
  if (problem !== undefined) {
    log(`service account issuer discovery is not served: ${problem}`);
    return next;
  }
  let config: Record<string, unknown> | undefined;
  const keySet = jwks(o.keys);
  // Written here rather than by respond.ts, whose answers are never cacheable.
  const send = (ctx: RequestContext, body: unknown, type: string) => {
    if (ctx.res.headersSent || responseGone(ctx.res)) return;
    const text = JSON.stringify(body);
    ctx.res.writeHead(200, {
      'content-type': type,
      'cache-control': CACHE_CONTROL,
      'content-length': Buffer.byteLength(text),
    });
    if (ctx.method === 'HEAD') ctx.res.end();
    else ctx.res.end(text);
  };
  return async (ctx) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      if (ctx.info.path === OPENID_CONFIGURATION_PATH) {
        config ??= openIdConfiguration(o);
        return send(ctx, config, 'application/json');
      }
      if (ctx.info.path === JWKS_PATH) return send(ctx, keySet, JWKS_MEDIA_TYPE);
    }
    return next(ctx);
  };
}
