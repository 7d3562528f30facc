// The format of bootstrap token Secrets (`bootstrap-token-<id>` of the bootstrap token type): the
// rules the authenticator reads them by and that a write of such a Secret is checked against, so
// that a Secret which could never authenticate is refused when written rather than ignored later.

import { type FieldError, invalid, newPath, required } from '../field-errors.ts';

/** Six lowercase letters or digits: the public part of a token. */
export const BOOTSTRAP_TOKEN_ID_PATTERN = /^[a-z0-9]{6}$/;
/** Sixteen lowercase letters or digits: the secret part. */
export const BOOTSTRAP_TOKEN_SECRET_PATTERN = /^[a-z0-9]{16}$/;
/** What each of `auth-extra-groups` must look like (cluster-bootstrap's pattern). */
export const BOOTSTRAP_GROUP_PATTERN = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
export const BOOTSTRAP_SECRET_PREFIX = 'bootstrap-token-';

/** Keys of the Secret's data. */
export const BOOTSTRAP_KEYS = {
  tokenId: 'token-id',
  tokenSecret: 'token-secret',
  expiration: 'expiration',
  usageAuthentication: 'usage-bootstrap-authentication',
  extraGroups: 'auth-extra-groups',
} as const;

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

const SECRET_REDACTED = '<secret contents redacted>';

/**
 * The field errors of a bootstrap token Secret named `name` whose data (base64, as stored) is
 * `data`: the id and secret in their formats, the name matching the id, an RFC 3339 expiration,
 * and extra groups under `system:bootstrappers:`. The secret's value never appears in a message.
 */
export function validateBootstrapTokenSecret(name: string, data: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const path = newPath('data');
  const text = (key: string): string | undefined => {
    const v = data[key];
    return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : undefined;
  };
  const id = text(BOOTSTRAP_KEYS.tokenId);
  if (id === undefined) errs.push(required(path.key(BOOTSTRAP_KEYS.tokenId), ''));
  else if (!BOOTSTRAP_TOKEN_ID_PATTERN.test(id)) {
    errs.push(
      invalid(path.key(BOOTSTRAP_KEYS.tokenId), id, `must match ${BOOTSTRAP_TOKEN_ID_PATTERN.source}`),
    );
  } else if (name !== `${BOOTSTRAP_SECRET_PREFIX}${id}`) {
    errs.push(
      invalid(
        newPath('metadata', 'name'),
        name,
        `must be ${BOOTSTRAP_SECRET_PREFIX}${id} for token-id ${id}`,
      ),
    );
  }
  const secret = text(BOOTSTRAP_KEYS.tokenSecret);
  if (secret === undefined) errs.push(required(path.key(BOOTSTRAP_KEYS.tokenSecret), ''));
  else if (!BOOTSTRAP_TOKEN_SECRET_PATTERN.test(secret)) {
    errs.push(
      invalid(
        path.key(BOOTSTRAP_KEYS.tokenSecret),
        SECRET_REDACTED,
        `must match ${BOOTSTRAP_TOKEN_SECRET_PATTERN.source}`,
      ),
    );
  }
  const expiration = text(BOOTSTRAP_KEYS.expiration);
  if (expiration !== undefined && parseRfc3339(expiration) === undefined) {
    errs.push(
      invalid(
        path.key(BOOTSTRAP_KEYS.expiration),
        expiration,
        'must be an RFC 3339 time (for example 2030-01-02T15:04:05Z)',
      ),
    );
  }
  const groups = text(BOOTSTRAP_KEYS.extraGroups);
  if (groups !== undefined && groups !== '') {
    for (const g of groups.split(',')) {
      if (!BOOTSTRAP_GROUP_PATTERN.test(g)) {
        errs.push(
          invalid(
            path.key(BOOTSTRAP_KEYS.extraGroups),
            groups,
            `bootstrap group ${JSON.stringify(g)} is invalid (must match ${BOOTSTRAP_GROUP_PATTERN.source})`,
          ),
        );
      }
    }
  }
  return errs;
}
