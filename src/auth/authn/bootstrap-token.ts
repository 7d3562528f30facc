// Bootstrap tokens (--enable-bootstrap-token-auth): short shared secrets `<id>.<secret>` that let a
// new machine reach the API before it has a certificate. Each token lives in a Secret of the
// bootstrap token type named `bootstrap-token-<id>` in the system namespace, read from the server's
// memory (no store read per request). As upstream, anything wrong with the Secret (absent, being
// deleted, another type, a secret that differs, expired or unparsable expiry, not marked for
// authentication, a malformed extra group) means "not my token": the bearer filter then refuses it
// with 401, and nothing about the Secret leaks to the client.

import { timingSafeEqual } from 'node:crypto';
import {
  BOOTSTRAP_GROUP_PATTERN,
  BOOTSTRAP_KEYS,
  BOOTSTRAP_SECRET_PREFIX,
  parseRfc3339,
} from '../../machinery/validation/bootstrap-token.ts';
import { bootstrapTokenSecretType } from '../../naming/bootstrap-tokens.ts';
import { componentName, type NamingProfile } from '../../naming/profile.ts';
import type { ObjectReader, TokenAuthenticator, TokenResult } from './types.ts';

/** `<id>.<secret>`: six and sixteen characters of lowercase letters and digits. */
const TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;

export { BOOTSTRAP_GROUP_PATTERN, BOOTSTRAP_KEYS, BOOTSTRAP_SECRET_PREFIX, parseRfc3339 };

export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';

export interface BootstrapNames {
  /** The Secret type: `bootstrap.<label domain>/token`. */
  secretType: string;
  /** Where the Secrets live: the profile's system namespace. */
  namespace: string;
}

export function bootstrapNames(profile: NamingProfile): BootstrapNames {
  return {
    secretType: bootstrapTokenSecretType(profile),
    namespace: componentName(profile, 'system'),
  };
}

function dataValue(data: Record<string, unknown>, key: string): string {
  const v = data[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

function sameSecret(stored: string, presented: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(presented);
  // timingSafeEqual needs equal lengths; comparing b with itself keeps the time independent of a.
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}

/** `system:bootstrappers` and the extra groups, sorted and without repeats; undefined when one is malformed. */
export function bootstrapGroups(extra: string): string[] | undefined {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  if (extra !== '') {
    for (const g of extra.split(',')) {
      if (!BOOTSTRAP_GROUP_PATTERN.test(g)) return undefined;
      groups.add(g);
    }
  }
  return [...groups].sort();
}

export class BootstrapTokenAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly objects: ObjectReader,
    private readonly names: BootstrapNames,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticateToken(token: string): Promise<TokenResult> {
    const m = TOKEN_PATTERN.exec(token);
    if (m === null) return null;
    const [, id, secret] = m;
    const obj = await this.objects.get(
      '',
      'v1',
      'secrets',
      this.names.namespace,
      `${BOOTSTRAP_SECRET_PREFIX}${id}`,
    );
    if (obj === undefined) return null;
    const meta = (obj.metadata ?? {}) as Record<string, unknown>;
    if (meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null) return null;
    const data = obj.data as Record<string, unknown> | undefined | null;
    if (obj.type !== this.names.secretType || data === undefined || data === null) return null;
    if (!sameSecret(dataValue(data, BOOTSTRAP_KEYS.tokenSecret), secret)) return null;
    if (dataValue(data, BOOTSTRAP_KEYS.tokenId) !== id) return null;
    const expiration = dataValue(data, BOOTSTRAP_KEYS.expiration);
    if (expiration !== '') {
      const at = parseRfc3339(expiration);
      // An expiry that does not parse counts as past, as upstream.
      if (at === undefined || at <= this.now()) return null;
    }
    if (dataValue(data, BOOTSTRAP_KEYS.usageAuthentication) !== 'true') return null;
    const groups = bootstrapGroups(dataValue(data, BOOTSTRAP_KEYS.extraGroups));
    if (groups === undefined) return null;
    return { user: { username: `${BOOTSTRAP_USER_PREFIX}${id}`, groups } };
  }
}
