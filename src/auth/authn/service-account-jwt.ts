// What bound and legacy service account tokens share (upstream's JWT token authenticator): a token
// is ours only when its unverified `iss` is one of our issuers (otherwise another authenticator may
// take it: OIDC); then its signature must verify against one of the keys, its audiences (the API's
// when it has none) must meet the audiences asked for, and the validator of its kind checks its
// claims against the objects. A token that is not a JWS at all, or is unsigned (`alg: none`), is
// not ours either: nobody accepts it and the request is a 401.

import { compactVerify, decodeProtectedHeader } from 'jose';
import { acceptedAlgorithms, type VerifyingKey } from './keys.ts';
import type { TokenAuthenticator, TokenResult, UserInfo } from './types.ts';

export type Claims = Record<string, unknown>;

/** Checks a verified token's claims (and the objects they name); a user or the reason it is refused. */
export interface ClaimsValidator {
  validate(token: string, claims: Claims): Promise<{ user: UserInfo } | { error: string }>;
}

export interface JwtAuthenticatorOptions {
  issuers: readonly string[];
  keys: () => readonly VerifyingKey[];
  /** The API's audiences (`--api-audiences`): a token without `aud` is taken as one for them. */
  implicitAudiences: readonly string[];
  validator: ClaimsValidator;
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
export function goQuotedList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** The payload of a compact JWS read without verifying it, or undefined when it is no JWS. */
function unverifiedPayload(token: string): Claims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Claims)
      : undefined;
  } catch {
    return undefined;
  }
}

export function audiencesOf(claims: Claims): string[] {
  const aud = claims.aud;
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud)) return aud.filter((a): a is string => typeof a === 'string');
  return [];
}

export class ServiceAccountJwtAuthenticator implements TokenAuthenticator {
  private readonly issuers: ReadonlySet<string>;

  constructor(private readonly opts: JwtAuthenticatorOptions) {
    this.issuers = new Set(opts.issuers);
  }

  async authenticateToken(token: string, audiences: readonly string[]): Promise<TokenResult> {
    const peek = unverifiedPayload(token);
    if (peek === undefined || typeof peek.iss !== 'string' || !this.issuers.has(peek.iss)) return null;
    let header: { alg?: string; kid?: string };
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return null;
    }
    if (typeof header.alg !== 'string' || header.alg === 'none') return null;
    const verified = await this.verify(token, header.kid);
    if ('error' in verified) return verified;
    const claims = verified.claims;
    // Checked again on the verified claims: the peek above read them before the signature did.
    if (typeof claims.iss !== 'string' || !this.issuers.has(claims.iss)) {
      return { error: `token issuer ${JSON.stringify(claims.iss)} is invalid` };
    }
    let tokenAudiences = audiencesOf(claims);
    if (tokenAudiences.length === 0) tokenAudiences = [...this.opts.implicitAudiences];
    const requested = new Set(audiences);
    const granted = tokenAudiences.filter((a) => requested.has(a));
    if (granted.length === 0 && this.opts.implicitAudiences.length > 0) {
      return {
        error: `token audiences ${goQuotedList(tokenAudiences)} is invalid for the target audiences ${goQuotedList(audiences)}`,
      };
    }
    const r = await this.opts.validator.validate(token, claims);
    if ('error' in r) return r;
    return { user: r.user, audiences: granted };
  }

  /** Tries the key the header names first, then the others; upstream tries every key. */
  private async verify(
    token: string,
    kid: string | undefined,
  ): Promise<{ claims: Claims } | { error: string }> {
    const keys = [...this.opts.keys()].sort((a, b) => Number(b.kid === kid) - Number(a.kid === kid));
    const errors: string[] = [];
    for (const key of keys) {
      try {
        const { payload } = await compactVerify(token, key.key, { algorithms: acceptedAlgorithms(key) });
        const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
        if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
          return { error: 'go-jose/go-jose: invalid claims' };
        }
        return { claims: claims as Claims };
      } catch {
        errors.push('go-jose/go-jose: error in cryptographic primitive');
      }
    }
    if (errors.length === 0) return { error: 'no keys to verify service account tokens' };
    // As upstream's aggregate error: repeated messages once, brackets only around several.
    const distinct = [...new Set(errors)];
    return { error: distinct.length === 1 ? distinct[0] : `[${distinct.join(', ')}]` };
  }
}
