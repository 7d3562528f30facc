// The AuthenticationConfiguration file (`--authentication-config`): its types and its strict
// decoding. The file names its kind in `apiserver.config.<group domain>` at v1, v1beta1 or
// v1alpha1 (the versions upstream 1.35 reads); under the spec profile the upstream-named group is
// read too, as every renamed group is. Unknown and repeated fields are errors, as upstream's
// strict decoder makes them (the envelope and shape check are ../config-file.ts's, shared with
// authorization's). Field rules live in authentication-config-validation.ts.

import { groupName, type NamingProfile, namingProfile } from '../../naming/index.ts';
import { decodeConfigFile, type Shape } from '../config-file.ts';

export const AUTHENTICATION_CONFIG_KIND = 'AuthenticationConfiguration';
export const AUTHENTICATION_CONFIG_VERSIONS = ['v1', 'v1beta1', 'v1alpha1'] as const;

export interface PrefixedClaimOrExpression {
  claim?: string;
  /** Unset differs from '' (no prefix): with `claim`, upstream requires it to be set. */
  prefix?: string;
  expression?: string;
}

export interface ClaimOrExpression {
  claim?: string;
  expression?: string;
}

export interface ExtraMapping {
  key: string;
  valueExpression: string;
}

export interface ClaimValidationRule {
  claim?: string;
  requiredValue?: string;
  expression?: string;
  message?: string;
}

export interface UserValidationRule {
  expression: string;
  message?: string;
}

export interface Issuer {
  url: string;
  discoveryURL?: string;
  certificateAuthority?: string;
  audiences: string[];
  audienceMatchPolicy?: string;
  egressSelectorType?: string;
}

export interface JwtAuthenticatorConfig {
  issuer: Issuer;
  claimValidationRules?: ClaimValidationRule[];
  claimMappings: {
    username: PrefixedClaimOrExpression;
    groups?: PrefixedClaimOrExpression;
    uid?: ClaimOrExpression;
    extra?: ExtraMapping[];
  };
  userValidationRules?: UserValidationRule[];
}

export interface AnonymousConfig {
  enabled: boolean;
  conditions?: { path: string }[];
}

export interface AuthenticationConfiguration {
  jwt: JwtAuthenticatorConfig[];
  anonymous?: AnonymousConfig;
}

/** The group the file's apiVersion names: `apiserver.config.<group domain>`. */
export function authenticationConfigGroup(profile: NamingProfile): string {
  return groupName(profile, 'apiserver.config');
}

// --- the shape the decoder checks -----------------------------------------------------------------

const PREFIXED: Shape = { fields: { claim: 'string', prefix: 'string', expression: 'string' } };
const JWT: Shape = {
  fields: {
    issuer: {
      fields: {
        url: 'string',
        discoveryURL: 'string',
        certificateAuthority: 'string',
        audiences: { list: 'string' },
        audienceMatchPolicy: 'string',
        egressSelectorType: 'string',
      },
    },
    claimValidationRules: {
      list: { fields: { claim: 'string', requiredValue: 'string', expression: 'string', message: 'string' } },
    },
    claimMappings: {
      fields: {
        username: PREFIXED,
        groups: PREFIXED,
        uid: { fields: { claim: 'string', expression: 'string' } },
        extra: { list: { fields: { key: 'string', valueExpression: 'string' } } },
      },
    },
    userValidationRules: { list: { fields: { expression: 'string', message: 'string' } } },
  },
};
const ROOT: Shape = {
  fields: {
    apiVersion: 'string',
    kind: 'string',
    jwt: { list: JWT },
    anonymous: { fields: { enabled: 'bool', conditions: { list: { fields: { path: 'string' } } } } },
  },
};

/**
 * Decodes the file's text (YAML or JSON). The apiVersion must name the profile's group (or, under
 * a profile that renames groups, the upstream one) at a version upstream reads.
 */
export function decodeAuthenticationConfig(
  text: string,
  profile: NamingProfile = namingProfile('spec'),
): AuthenticationConfiguration {
  const obj = decodeConfigFile(text, {
    group: authenticationConfigGroup(profile),
    profile,
    kind: AUTHENTICATION_CONFIG_KIND,
    versions: AUTHENTICATION_CONFIG_VERSIONS,
    shape: ROOT,
  });
  const jwt = (obj.jwt ?? []) as JwtAuthenticatorConfig[];
  for (const a of jwt) {
    // Absent structs decode to their zero values, as Go's do.
    a.issuer ??= { url: '', audiences: [] };
    a.issuer.url ??= '';
    a.issuer.audiences ??= [];
    a.claimMappings ??= { username: {} };
    a.claimMappings.username ??= {};
  }
  const out: AuthenticationConfiguration = { jwt };
  if (obj.anonymous !== undefined && obj.anonymous !== null) {
    const anon = obj.anonymous as { enabled?: boolean; conditions?: { path?: string }[] };
    out.anonymous = {
      enabled: anon.enabled ?? false,
      ...(anon.conditions !== undefined && anon.conditions !== null
        ? { conditions: anon.conditions.map((c) => ({ path: c?.path ?? '' })) }
        : {}),
    };
  }
  return out;
}
