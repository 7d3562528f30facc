// The flag form of the JWT authenticator (--oidc-*), turned into one AuthenticationConfiguration
// entry as upstream turns it, so both forms share the validation and the token checks. The
// username prefix keeps the flags' legacy rule: unset means `<issuer>#` for claims other than
// `email`, and `-` means no prefix.

import { readFileSync } from 'node:fs';
import type { JwtAuthenticatorConfig } from './authentication-config.ts';
import { ALLOWED_SIGNING_ALGS } from './jwt-verify.ts';
import { AUTHN_DEFAULTS, type OidcOptions } from './options.ts';

/** The issuer URL and client id go together, as upstream requires whenever any --oidc-* flag is set. */
export function oidcFlagsError(o: OidcOptions): string | undefined {
  if (o.issuerUrl === '' || (o.clientId ?? '') === '') {
    return 'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set';
  }
  return undefined;
}

/** The accepted algorithms; an algorithm outside upstream's allow-list stops the server. */
export function oidcSigningAlgs(o: OidcOptions): string[] {
  const algs =
    o.signingAlgs !== undefined && o.signingAlgs.length > 0
      ? o.signingAlgs
      : [...AUTHN_DEFAULTS.oidcSigningAlgs];
  for (const alg of algs) {
    if (!ALLOWED_SIGNING_ALGS.includes(alg))
      throw new Error(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
  }
  return [...algs];
}

/** The JWT authenticator the flags describe (the CA file is read here, as upstream reads it). */
export function jwtAuthenticatorFromFlags(o: OidcOptions): JwtAuthenticatorConfig {
  const usernameClaim = o.usernameClaim ?? AUTHN_DEFAULTS.oidcUsernameClaim;
  let prefix = o.usernamePrefix ?? '';
  if (prefix === '' && usernameClaim !== 'email') prefix = `${o.issuerUrl}#`;
  if (o.usernamePrefix === '-') prefix = '';
  const a: JwtAuthenticatorConfig = {
    issuer: { url: o.issuerUrl, audiences: [o.clientId ?? ''] },
    claimMappings: { username: { claim: usernameClaim, prefix } },
  };
  if ((o.groupsClaim ?? '') !== '') {
    a.claimMappings.groups = { claim: o.groupsClaim, prefix: o.groupsPrefix ?? '' };
  }
  if (o.caFile !== undefined && o.caFile !== '') {
    a.issuer.certificateAuthority = readFileSync(o.caFile, 'utf8');
  }
  const required = Object.entries(o.requiredClaims ?? {});
  if (required.length > 0) {
    a.claimValidationRules = required.map(([claim, requiredValue]) => ({ claim, requiredValue }));
  }
  return a;
}
