// Legacy service account tokens: long-lived JWTs a controller writes into Secrets of the service
// account token type, issued by upstream's fixed legacy issuer with flat claims (namespace, secret
// name, service account name and uid). With --service-account-lookup (the default) the Secret must
// still exist, still hold this very token and not be marked invalid, and the service account must
// still exist with the uid the token names; without it, a validly signed token is enough, as
// upstream. Such tokens carry no expiry and no audiences (the API's are implied).

import { LEGACY_SERVICE_ACCOUNT_ISSUER, type ServiceAccountNames } from '../../naming/service-accounts.ts';
import { serviceAccountUser } from './service-account.ts';
import type { Claims, ClaimsValidator } from './service-account-jwt.ts';
import type { ObjectReader, UserInfo } from './types.ts';

export { LEGACY_SERVICE_ACCOUNT_ISSUER };

/** The legacy claims for a service account's token held by `secretName` (tests; the controller to come). */
export function legacyClaims(
  names: ServiceAccountNames,
  sa: { namespace: string; name: string; uid: string },
  secretName: string,
): Claims {
  const p = names.legacyClaimPrefix;
  return {
    iss: LEGACY_SERVICE_ACCOUNT_ISSUER,
    [`${p}namespace`]: sa.namespace,
    [`${p}secret.name`]: secretName,
    [`${p}service-account.name`]: sa.name,
    [`${p}service-account.uid`]: sa.uid,
    sub: `system:serviceaccount:${sa.namespace}:${sa.name}`,
  };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `system:serviceaccount:<ns>:<name>` split, or undefined when the subject is not of that form. */
function splitUsername(sub: string): [string, string] | undefined {
  const prefix = 'system:serviceaccount:';
  if (!sub.startsWith(prefix)) return undefined;
  const parts = sub.slice(prefix.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return [parts[0], parts[1]];
}

export class LegacyTokenValidator implements ClaimsValidator {
  constructor(
    private readonly objects: ObjectReader,
    private readonly names: ServiceAccountNames,
    private readonly lookup: boolean,
  ) {}

  async validate(token: string, claims: Claims): Promise<{ user: UserInfo } | { error: string }> {
    const p = this.names.legacyClaimPrefix;
    const sub = str(claims.sub);
    if (sub === '') return { error: 'sub claim is missing' };
    const namespace = str(claims[`${p}namespace`]);
    if (namespace === '') return { error: 'namespace claim is missing' };
    const secretName = str(claims[`${p}secret.name`]);
    if (secretName === '') return { error: 'secretName claim is missing' };
    const saName = str(claims[`${p}service-account.name`]);
    if (saName === '') return { error: 'serviceAccountName claim is missing' };
    const saUid = str(claims[`${p}service-account.uid`]);
    if (saUid === '') return { error: 'serviceAccountUID claim is missing' };
    const subject = splitUsername(sub);
    if (subject === undefined || subject[0] !== namespace || subject[1] !== saName) {
      return { error: 'sub claim is invalid' };
    }
    if (this.lookup) {
      const secret = await this.objects.get('', 'v1', 'secrets', namespace, secretName);
      const meta = (secret?.metadata ?? {}) as {
        deletionTimestamp?: string;
        labels?: Record<string, string>;
      };
      if (secret === undefined || meta.deletionTimestamp !== undefined)
        return { error: 'Token has been invalidated' };
      const held = (secret.data as Record<string, unknown> | undefined)?.token;
      if (typeof held !== 'string' || Buffer.from(held, 'base64').toString('utf8') !== token) {
        return { error: "Token does not match server's copy" };
      }
      if ((meta.labels?.[this.names.legacyInvalidSinceLabel] ?? '') !== '') {
        return { error: 'Token has been invalidated' };
      }
      const sa = await this.objects.get('', 'v1', 'serviceaccounts', namespace, saName);
      if (sa === undefined) return { error: `serviceaccounts "${saName}" not found` };
      const saMeta = (sa.metadata ?? {}) as { uid?: string; deletionTimestamp?: string };
      if (saMeta.deletionTimestamp !== undefined) {
        return { error: `ServiceAccount ${namespace}/${saName} has been deleted` };
      }
      if ((saMeta.uid ?? '') !== saUid) {
        return { error: `ServiceAccount UID (${saMeta.uid ?? ''}) does not match claim (${saUid})` };
      }
    }
    return { user: serviceAccountUser({ namespace, name: saName, uid: saUid }, this.names) };
  }
}
