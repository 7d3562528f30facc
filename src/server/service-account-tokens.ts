// Wires service account tokens into the served API: the ServiceAccount kind gains its `token`
// sub-resource (TokenRequest), issuing with the keys and rules of the authentication setup.

import { type TokenRequestIssuer, tokenRequestAction } from '../apis/authentication/token-request.ts';
import type { ServiceAccountSetup } from '../auth/authn/service-account-setup.ts';
import type { NamingProfile } from '../naming/profile.ts';
import type { KindDefinition } from '../registry/kind.ts';
import { withSubresourceAction } from '../registry/subresource-action.ts';

export function tokenRequestIssuer(s: ServiceAccountSetup): TokenRequestIssuer {
  return {
    apiAudiences: s.apiAudiences,
    maxExpirationSeconds: s.maxExpirationSeconds,
    extendExpiration: s.extendExpiration,
    issue: (r) => s.issuer.issue(r),
  };
}

/** `kinds` with `serviceaccounts/token` served. */
export function withServiceAccountTokens(
  kinds: KindDefinition[],
  profile: NamingProfile,
  s: ServiceAccountSetup,
): KindDefinition[] {
  const action = tokenRequestAction(profile, tokenRequestIssuer(s));
  return kinds.map((k) =>
    k.resource.group === '' && k.resource.resource === 'serviceaccounts'
      ? withSubresourceAction(k, 'token', action)
      : k,
  );
}
