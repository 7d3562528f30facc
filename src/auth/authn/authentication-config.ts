// The AuthenticationConfiguration file (`--authentication-config`): its types and its strict
// decoding. The file names its kind in `apiserver.config.<group domain>` at v1, v1beta1 or
// v1alpha1 (the versions upstream 1.35 reads); under the spec profile the upstream-named group is
// read too, as every renamed group is. Unknown and repeated fields are errors, as upstream's
// strict decoder makes them. Field rules live in authentication-config-validation.ts.

import { parseDocument } from 'yaml';
import { groupName, type NamingProfile, namingProfile, sameGroup } from '../../naming/index.ts';

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

export class ConfigDecodeError extends Error {
  override name = 'ConfigDecodeError';
}

// --- the shape the decoder checks -----------------------------------------------------------------

export type Shape = 'string' | 'bool' | { list: Shape } | { fields: Record<string, Shape> };

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

/** Checks `v` against the shape; unknown fields and wrong types are reported as the strict decoder does. */
export function check(v: unknown, shape: Shape, path: string, errs: string[]): void {
  if (v === null || v === undefined) return;
  if (shape === 'string') {
    if (typeof v !== 'string')
      errs.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${path} of type string`);
    return;
  }
  if (shape === 'bool') {
    if (typeof v !== 'boolean')
      errs.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${path} of type bool`);
    return;
  }
  if ('list' in shape) {
    if (!Array.isArray(v)) {
      errs.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${path} of type []`);
      return;
    }
    for (const [i, x] of v.entries()) check(x, shape.list, `${path}[${i}]`, errs);
    return;
  }
  if (typeof v !== 'object' || Array.isArray(v)) {
    errs.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${path || 'root'} of type object`);
    return;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const sub = shape.fields[k];
    const p = path === '' ? k : `${path}.${k}`;
    if (sub === undefined) errs.push(`strict decoding error: unknown field ${JSON.stringify(p)}`);
    else check(x, sub, p, errs);
  }
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * Decodes the file's text (YAML or JSON). The apiVersion must name the profile's group (or, under
 * a profile that renames groups, the upstream one) at a version upstream reads.
 */
export function decodeAuthenticationConfig(
  text: string,
  profile: NamingProfile = namingProfile('spec'),
): AuthenticationConfiguration {
  if (text.length === 0) throw new ConfigDecodeError('empty config data');
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ConfigDecodeError(`yaml: ${doc.errors.map((e) => e.message).join('; ')}`);
  }
  const raw: unknown = doc.toJS();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigDecodeError("couldn't get version/kind; json parse error: not an object");
  }
  const obj = raw as Record<string, unknown>;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  if (kind === '') throw new ConfigDecodeError(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const own = authenticationConfigGroup(profile);
  const known =
    sameGroup(profile, group, own) && (AUTHENTICATION_CONFIG_VERSIONS as readonly string[]).includes(version);
  if (!known || kind !== AUTHENTICATION_CONFIG_KIND) {
    throw new ConfigDecodeError(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`,
    );
  }
  const errs: string[] = [];
  check(raw, ROOT, '', errs);
  if (errs.length > 0) throw new ConfigDecodeError(errs.join(', '));
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
