// Service account tokens configured from the flags: keys, issuers, audiences and the expiry rules,
// checked at start as upstream checks them, and the two authenticators (legacy, then bound).
//
// kube-apiserver 1.35 refuses to start without --service-account-issuer and
// --service-account-signing-key-file. This server starts with one command, so it defaults them:
// the issuer to upstream's usual in-cluster one, and the signing key to `sa.key` in the PKI
// folder, generated on first start and reused after. Values given by flags always win. When no
// --service-account-key-file is given, tokens verify against the serving key (as upstream) and
// against the signing key (which upstream leaves to the operator to list).

import { join } from 'node:path';
import type { NamingProfile } from '../../naming/profile.ts';
import {
  DEFAULT_SERVICE_ACCOUNT_ISSUER,
  LEGACY_SERVICE_ACCOUNT_ISSUER,
  type ServiceAccountNames,
  serviceAccountNames,
} from '../../naming/service-accounts.ts';
import {
  loadOrCreateSigningKey,
  parsePublicKeysPem,
  readPublicKeysFile,
  readSigningKeyFile,
  type SigningKey,
  type VerifyingKey,
} from './keys.ts';
import { AUTHN_DEFAULTS, type ServiceAccountOptions } from './options.ts';
import { BoundTokenValidator } from './service-account.ts';
import { ServiceAccountTokenIssuer } from './service-account-issuer.ts';
import { ServiceAccountJwtAuthenticator } from './service-account-jwt.ts';
import { LegacyTokenValidator } from './service-account-legacy.ts';
import type { ObjectReader, TokenAuthenticator } from './types.ts';

/** The generated signing key's file name in the PKI folder (kubeadm's name). */
export const GENERATED_SIGNING_KEY_FILE = 'sa.key';

/** Upstream's bounds on --service-account-max-token-expiration. */
const MAX_EXPIRATION_LOW_MS = 3600_000;
const MAX_EXPIRATION_HIGH_MS = 2 ** 32 * 1000;

export interface ServiceAccountSetupInput {
  serviceAccount?: ServiceAccountOptions;
  apiAudiences?: string[];
  pkiDir: string;
  /** The serving key (PEM): verifies tokens when no key file is given, as upstream. */
  servingKeyPem: string;
  profile: NamingProfile;
}

export interface ServiceAccountSetup {
  /** The options with the defaults filled in (issuers). */
  options: ServiceAccountOptions & { issuers: string[] };
  /** `--api-audiences`, else the issuers. */
  apiAudiences: string[];
  issuer: ServiceAccountTokenIssuer;
  signingKey: SigningKey;
  verifyingKeys: VerifyingKey[];
  /** 0: no cap. */
  maxExpirationSeconds: number;
  extendExpiration: boolean;
  lookup: boolean;
  names: ServiceAccountNames;
}

/** Upstream's checks of the issuer and JWKS flags; every problem at once. */
export function validateServiceAccountOptions(o: ServiceAccountOptions): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const issuer of o.issuers ?? []) {
    if (issuer.includes(':') && !URL.canParse(issuer)) {
      errors.push(`service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL`);
      continue;
    }
    if (issuer === '') {
      errors.push('service-account-issuer should not be an empty string');
      continue;
    }
    if (seen.has(issuer)) {
      errors.push(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
      continue;
    }
    seen.add(issuer);
  }
  if (o.jwksUri !== undefined && o.jwksUri !== '') {
    if (!URL.canParse(o.jwksUri)) errors.push('service-account-jwks-uri must be a valid URL');
    else if (new URL(o.jwksUri).protocol !== 'https:') {
      errors.push(`service-account-jwks-uri requires https scheme, parsed as: ${o.jwksUri}`);
    }
  }
  const max = o.maxTokenExpirationMs ?? 0;
  if (max !== 0 && (max < MAX_EXPIRATION_LOW_MS || max > MAX_EXPIRATION_HIGH_MS)) {
    errors.push('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  }
  return errors;
}

export function prepareServiceAccounts(input: ServiceAccountSetupInput): ServiceAccountSetup {
  const given = input.serviceAccount ?? {};
  const errors = validateServiceAccountOptions(given);
  if (errors.length > 0) throw new Error(errors.join(', '));
  const issuers =
    given.issuers !== undefined && given.issuers.length > 0
      ? [...given.issuers]
      : [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  const signingKey =
    given.signingKeyFile !== undefined && given.signingKeyFile !== ''
      ? readSigningKeyFile(given.signingKeyFile)
      : loadOrCreateSigningKey(join(input.pkiDir, GENERATED_SIGNING_KEY_FILE));
  let verifyingKeys: VerifyingKey[];
  if (given.keyFiles !== undefined && given.keyFiles.length > 0) {
    verifyingKeys = given.keyFiles.flatMap((f) => readPublicKeysFile(f));
  } else {
    verifyingKeys = [signingKey, ...servingKeys(input.servingKeyPem)];
  }
  // One entry per key: the JWKS lists each once, and verification tries each once.
  const byKid = new Map(verifyingKeys.map((k) => [k.kid, { key: k.key, alg: k.alg, kid: k.kid }]));
  const names = serviceAccountNames(input.profile);
  const apiAudiences =
    input.apiAudiences !== undefined && input.apiAudiences.length > 0
      ? [...input.apiAudiences]
      : [...issuers];
  return {
    options: { ...given, issuers },
    apiAudiences,
    issuer: new ServiceAccountTokenIssuer(issuers[0], signingKey, names),
    signingKey,
    verifyingKeys: [...byKid.values()],
    maxExpirationSeconds: Math.floor((given.maxTokenExpirationMs ?? 0) / 1000),
    extendExpiration: given.extendTokenExpiration ?? AUTHN_DEFAULTS.serviceAccountExtendTokenExpiration,
    lookup: given.lookup ?? AUTHN_DEFAULTS.serviceAccountLookup,
    names,
  };
}

/** The serving key when it is RSA or ECDSA; upstream skips a TLS key it cannot use. */
function servingKeys(pem: string): VerifyingKey[] {
  try {
    return parsePublicKeysPem(pem);
  } catch {
    return [];
  }
}

/** Legacy tokens first, then bound ones, in upstream's order. */
export function serviceAccountAuthenticators(
  s: ServiceAccountSetup,
  objects: ObjectReader,
): TokenAuthenticator[] {
  const keys = () => s.verifyingKeys;
  return [
    new ServiceAccountJwtAuthenticator({
      issuers: [LEGACY_SERVICE_ACCOUNT_ISSUER],
      keys,
      implicitAudiences: s.apiAudiences,
      validator: new LegacyTokenValidator(objects, s.names, s.lookup),
    }),
    new ServiceAccountJwtAuthenticator({
      issuers: s.options.issuers,
      keys,
      implicitAudiences: s.apiAudiences,
      validator: new BoundTokenValidator(objects, s.names),
    }),
  ];
}
