// Reading bootstrap token Secrets as the signer and the cleaner need them (upstream's
// cluster-bootstrap secret utilities): a data value as text, the token id a Secret's name carries,
// when a token expires (an expiry that does not parse counts as passed, as upstream), and whether
// a Secret is a token that may sign. Odd objects (no data, values that are not strings) read as
// absent values, never as errors.

import type { ApiObject } from '../../machinery/object.ts';
import {
  BOOTSTRAP_KEYS,
  BOOTSTRAP_SECRET_PREFIX,
  parseRfc3339,
} from '../../machinery/validation/bootstrap-token.ts';

/** The data key that marks a token for signing the cluster-info ConfigMap. */
export const USAGE_SIGNING_KEY = 'usage-bootstrap-signing';

const NAME_PATTERN = new RegExp(`^${BOOTSTRAP_SECRET_PREFIX}([a-z0-9]{6})$`);

/** A Secret's data value decoded to text; '' when absent or not a string. */
export function secretString(secret: ApiObject, key: string): string {
  const data = secret.data;
  if (data === null || typeof data !== 'object') return '';
  const v = (data as Record<string, unknown>)[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** The token id of a Secret named `bootstrap-token-<id>`, or undefined. */
export function tokenIdOfSecretName(name: string): string | undefined {
  return NAME_PATTERN.exec(name)?.[1];
}

export interface Expiration {
  expired: boolean;
  /** Milliseconds until the expiry; 0 when expired or when the token does not expire. */
  remainingMs: number;
}

/** When the token held by `secret` expires, as seen at `now` (ms since the epoch). */
export function tokenExpiration(secret: ApiObject, now: number): Expiration {
  const text = secretString(secret, BOOTSTRAP_KEYS.expiration);
  if (text === '') return { expired: false, remainingMs: 0 };
  const at = parseRfc3339(text);
  if (at === undefined) return { expired: true, remainingMs: 0 };
  const remainingMs = at - now;
  return remainingMs <= 0 ? { expired: true, remainingMs: 0 } : { expired: false, remainingMs };
}

export interface SigningToken {
  id: string;
  secret: string;
}

/**
 * The token of `secret` when it may sign: named `bootstrap-token-<id>` with the same token-id in
 * its data, a token-secret, not expired, and usage-bootstrap-signing exactly "true".
 */
export function tokenForSigning(secret: ApiObject, now: number): SigningToken | undefined {
  const nameId = tokenIdOfSecretName(String(secret.metadata?.name ?? ''));
  if (nameId === undefined) return undefined;
  const id = secretString(secret, BOOTSTRAP_KEYS.tokenId);
  if (id === '' || id !== nameId) return undefined;
  const tokenSecret = secretString(secret, BOOTSTRAP_KEYS.tokenSecret);
  if (tokenSecret === '') return undefined;
  if (tokenExpiration(secret, now).expired) return undefined;
  if (secretString(secret, USAGE_SIGNING_KEY) !== 'true') return undefined;
  return { id, secret: tokenSecret };
}
