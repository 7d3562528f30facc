// Bootstrap tokens (--enable-bootstrap-token-auth): short shared secrets `<id>.<secret>` that let a
// new machine reach the API before it has a certificate. Each token lives in a Secret of the
// bootstrap token type named `bootstrap-token-<id>` in the system namespace, read from the server's
// memory (no store read per request). As upstream, anything wrong with the Secret (absent, being
// deleted, another type, a secret that differs, expired or unparsable expiry, not marked for
// authentication, a malformed extra group) means "not my token": the bearer filter then refuses it
// with 401, and nothing about the Secret leaks to the client.

import { timingSafeEqual } from 'node:crypto';
import { componentName, type NamingProfile } from '../../naming/profile.ts';
import type { ObjectReader, TokenAuthenticator, TokenResult } from './types.ts';

/** `<id>.<secret>`: six and sixteen characters of lowercase letters and digits. */
const TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
/** What each of `auth-extra-groups` must look like (cluster-bootstrap's pattern). */
export const BOOTSTRAP_GROUP_PATTERN = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

export const BOOTSTRAP_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';

/** Keys of the Secret's data. */
export const BOOTSTRAP_KEYS = {
  tokenId: 'token-id',
  tokenSecret: 'token-secret',
  expiration: 'expiration',
  usageAuthentication: 'usage-bootstrap-authentication',
  extraGroups: 'auth-extra-groups',
} as const;

export interface BootstrapNames {
  /** The Secret type: `bootstrap.<label domain>/token`. */
  secretType: string;
  /** Where the Secrets live: the profile's system namespace. */
  namespace: string;
}

export function bootstrapNames(profile: NamingProfile): BootstrapNames {
  return {
    secretType: `bootstrap.${profile.labelDomain}/token`,
    namespace: componentName(profile, 'system'),
  };
}

/**
 * RFC 3339 as Go's time.Parse(time.RFC3339) takes it: a date, `T`, a time with optional fraction,
 * and `Z` or a numeric offset. Undefined when it is not of that form.
 */
export function parseRfc3339(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(s);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(Number(y), month, 0)).getUTCDate())
    return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) return undefined;
  let offsetMin = 0;
  if (zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = frac === undefined ? 0 : Math.floor(Number(`0${frac}`) * 1000);
  const utc = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(sec), ms);
  return utc - offsetMin * 60_000;
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
