// Verification of a JWT from an OpenID issuer, in the order and with the wording of the OpenID
// library upstream's JWT authenticator uses: structure, issuer, audience, expiry and not-before,
// then the algorithm and the signature. Kept apart from the service-account verifier on purpose:
// the two follow different upstream code and may be merged later. Signatures come from jose.

import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { compactVerify } from 'jose';

/** The algorithms upstream allows at all (RFC 7518 asymmetric signatures). */
export const ALLOWED_SIGNING_ALGS: readonly string[] = [
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
];

/** Leeway on `nbf` for clock skew, as upstream's OpenID library grants. */
const NOT_BEFORE_LEEWAY_MS = 5 * 60_000;

export interface JwtParts {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

/** The unverified header and claims, or why the token is not a compact JWT. */
export function parseCompactJwt(token: string): JwtParts | { error: string } {
  if (token.trimStart().startsWith('{')) return { error: 'token is not compact JWT' };
  const parts = token.split('.');
  if (parts.length !== 3) return { error: 'malformed token' };
  const header = decodeSegment(parts[0]);
  const claims = decodeSegment(parts[1]);
  if (header === undefined || claims === undefined) return { error: 'error decoding token' };
  return { header, claims };
}

function decodeSegment(s: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The `iss` a token claims before anything is verified: only to pick the authenticator. */
export function untrustedIssuer(token: string): string | undefined {
  const p = parseCompactJwt(token);
  if ('error' in p) return undefined;
  const iss = p.claims.iss;
  if (typeof iss !== 'string') return undefined;
  // The legacy form of one well-known issuer is read as its URL, as upstream does.
  return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
}

/** A verification key from a JWKS, imported once. */
export interface VerificationKey {
  kid?: string;
  key: KeyObject;
}

/** Imports the signature keys of a JWKS document; keys for encryption or of unknown types are left out. */
export function importJwks(doc: unknown): VerificationKey[] {
  const keys = (doc as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('malformed JWKS: no keys');
  const out: VerificationKey[] = [];
  for (const jwk of keys as Record<string, unknown>[]) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    if (jwk.use !== undefined && jwk.use !== 'sig') continue;
    if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') continue;
    try {
      const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
      out.push({ kid: typeof jwk.kid === 'string' ? jwk.kid : undefined, key });
    } catch {
      // A key node cannot read cannot verify anything; the others still can.
    }
  }
  return out;
}

export interface ClaimCheck {
  issuer: string;
  audiences: readonly string[];
  now: number;
}

/** Issuer, audience, expiry and not-before, as upstream checks them before the signature. */
export function checkClaims(claims: Record<string, unknown>, c: ClaimCheck): string | undefined {
  if (claims.iss !== c.issuer) {
    return `oidc: id token issued by a different provider, expected ${goQuote(c.issuer)} got ${goQuote(String(claims.iss ?? ''))}`;
  }
  const aud = audienceOf(claims.aud);
  if (aud === undefined)
    return 'oidc: failed to unmarshal claims: aud is neither a string nor a list of strings';
  if (!aud.some((a) => c.audiences.includes(a))) {
    // One audience is checked by the OpenID library, several by upstream's own code; each its wording.
    return c.audiences.length === 1
      ? `oidc: expected audience ${goQuote(c.audiences[0])} got ${goList(aud)}`
      : `oidc: expected audience in ${goList([...c.audiences].sort())} got ${goList(aud)}`;
  }
  const exp = numericDate(claims.exp);
  if (exp === null) return 'oidc: failed to unmarshal claims: exp is not a number';
  const expMs = (exp ?? 0) * 1000;
  if (expMs < c.now) return `oidc: token is expired (Token Expiry: ${goTime(expMs)})`;
  const nbf = numericDate(claims.nbf);
  if (nbf === null) return 'oidc: failed to unmarshal claims: nbf is not a number';
  if (nbf !== undefined && c.now + NOT_BEFORE_LEEWAY_MS < nbf * 1000) {
    return `oidc: current time ${goTime(c.now)} before the nbf (not before) time: ${goTime(nbf * 1000)}`;
  }
  return undefined;
}

function audienceOf(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return undefined;
}

/** Seconds since the epoch; undefined when absent, null when not a number. */
function numericDate(v: unknown): number | undefined | null {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export type SignatureCheck =
  | { ok: true }
  /** `unknownKey`: no key of the set could have signed it (the key set may be stale). */
  | { ok: false; error: string; unknownKey: boolean };

/** The algorithm must be one the authenticator accepts; then one of the keys must verify the signature. */
export async function verifySignature(
  token: string,
  header: Record<string, unknown>,
  keys: readonly VerificationKey[],
  algs: readonly string[],
): Promise<SignatureCheck> {
  const alg = header.alg;
  if (typeof alg !== 'string' || !algs.includes(alg)) {
    return {
      ok: false,
      error: `oidc: id token signed with unsupported algorithm, expected ${goList([...algs])} got ${goQuote(String(alg ?? ''))}`,
      unknownKey: false,
    };
  }
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const candidates = keys.filter((k) => kid === undefined || k.kid === kid);
  for (const k of candidates) {
    try {
      await compactVerify(token, k.key, { algorithms: [alg] });
      return { ok: true };
    } catch {
      // Another key of the set may still verify it.
    }
  }
  return {
    ok: false,
    error: 'failed to verify signature: failed to verify id token signature',
    unknownKey: candidates.length === 0 || kid === undefined,
  };
}

/** Go's %q for a plain string. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's %q for a list of strings: `["a" "b"]`. */
function goList(l: readonly string[]): string {
  return `[${l.map(goQuote).join(' ')}]`;
}

/** Go's default time format in UTC: `2006-01-02 15:04:05 +0000 UTC`. */
function goTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000 UTC`;
}
