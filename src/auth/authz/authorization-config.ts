// The AuthorizationConfiguration file (`--authorization-config`): its types, its strict decoding
// and its defaults. The file names its kind in `apiserver.config.<group domain>` at v1, v1beta1 or
// v1alpha1 (the versions upstream 1.35 reads); under the spec profile the upstream-named group is
// read too. Unknown and repeated fields are errors, as upstream's strict decoder makes them (the
// envelope and shape check are ../config-file.ts's, shared with authentication's). The connection
// type is the spec's ClientConfigFile with `clientConfigFile`, or upstream's spelling of both.
// Field rules: authorization-config-validation.ts.

import { parseDuration } from '../../machinery/duration.ts';
import { type NamingProfile, namingProfile } from '../../naming/index.ts';
import { authenticationConfigGroup } from '../authn/authentication-config.ts';
import { ConfigDecodeError, decodeConfigFile, type Shape } from '../config-file.ts';

export const AUTHORIZATION_CONFIG_KIND = 'AuthorizationConfiguration';
export const AUTHORIZATION_CONFIG_VERSIONS = ['v1', 'v1beta1', 'v1alpha1'] as const;

/** Upstream's spelling of the client configuration file, `kubeConfig`, derived from the profile. */
const UPSTREAM_FILE_FIELD = `${namingProfile('upstream').clientConfig.replace(/config$/, 'Config')}File`;
const SPEC_FILE_FIELD = 'clientConfigFile';
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
/** Connection types: the spec's, then upstream's. */
export const CLIENT_CONFIG_FILE_TYPES = [cap(SPEC_FILE_FIELD), cap(UPSTREAM_FILE_FIELD)] as const;
export const IN_CLUSTER_CONFIG = 'InClusterConfig';

export interface WebhookConnectionInfo {
  type: string;
  /** The client configuration file (either spelling in the file). */
  configFile?: string;
  /** The field the file was given in, for error paths. */
  configFileField: string;
}

export interface AuthorizerWebhookConfiguration {
  /** Milliseconds; 0 when unset (then defaulted to 5 minutes). */
  authorizedTTL: number;
  authorizedTTLText?: string;
  cacheAuthorizedRequests: boolean;
  unauthorizedTTL: number;
  unauthorizedTTLText?: string;
  cacheUnauthorizedRequests: boolean;
  timeout: number;
  timeoutText?: string;
  subjectAccessReviewVersion: string;
  matchConditionSubjectAccessReviewVersion: string;
  failurePolicy: string;
  connectionInfo: WebhookConnectionInfo;
  matchConditions: { expression: string }[];
}

export interface AuthorizerConfiguration {
  type: string;
  name: string;
  webhook?: AuthorizerWebhookConfiguration;
}

export interface AuthorizationConfiguration {
  authorizers: AuthorizerConfiguration[];
}

const WEBHOOK: Shape = {
  fields: {
    authorizedTTL: 'string',
    cacheAuthorizedRequests: 'bool',
    unauthorizedTTL: 'string',
    cacheUnauthorizedRequests: 'bool',
    timeout: 'string',
    subjectAccessReviewVersion: 'string',
    matchConditionSubjectAccessReviewVersion: 'string',
    failurePolicy: 'string',
    connectionInfo: {
      fields: { type: 'string', [SPEC_FILE_FIELD]: 'string', [UPSTREAM_FILE_FIELD]: 'string' },
    },
    matchConditions: { list: { fields: { expression: 'string' } } },
  },
};
const ROOT: Shape = {
  fields: {
    apiVersion: 'string',
    kind: 'string',
    authorizers: { list: { fields: { type: 'string', name: 'string', webhook: WEBHOOK } } },
  },
};

type Dict = Record<string, unknown>;

function duration(d: Dict, key: string, path: string): { ms: number; text?: string } {
  const v = d[key];
  if (typeof v !== 'string' || v === '') return { ms: 0 };
  try {
    return { ms: parseDuration(v), text: v };
  } catch (err) {
    throw new ConfigDecodeError(`${path}.${key}: ${(err as Error).message}`);
  }
}

function webhookOf(w: Dict, path: string): AuthorizerWebhookConfiguration {
  const ci = (w.connectionInfo ?? {}) as Dict;
  const spec = ci[SPEC_FILE_FIELD];
  const upstream = ci[UPSTREAM_FILE_FIELD];
  const configFileField = spec !== undefined ? SPEC_FILE_FIELD : UPSTREAM_FILE_FIELD;
  const file = (spec ?? upstream) as string | undefined;
  const authorized = duration(w, 'authorizedTTL', path);
  const unauthorized = duration(w, 'unauthorizedTTL', path);
  const timeout = duration(w, 'timeout', path);
  return {
    // Upstream's defaults: 5m and 30s for TTLs left at zero, caching on.
    authorizedTTL: authorized.ms === 0 ? 5 * 60_000 : authorized.ms,
    authorizedTTLText: authorized.text,
    cacheAuthorizedRequests: (w.cacheAuthorizedRequests as boolean | undefined) ?? true,
    unauthorizedTTL: unauthorized.ms === 0 ? 30_000 : unauthorized.ms,
    unauthorizedTTLText: unauthorized.text,
    cacheUnauthorizedRequests: (w.cacheUnauthorizedRequests as boolean | undefined) ?? true,
    timeout: timeout.ms,
    timeoutText: timeout.text,
    subjectAccessReviewVersion: (w.subjectAccessReviewVersion as string | undefined) ?? '',
    matchConditionSubjectAccessReviewVersion:
      (w.matchConditionSubjectAccessReviewVersion as string | undefined) ?? '',
    failurePolicy: (w.failurePolicy as string | undefined) ?? '',
    connectionInfo: { type: (ci.type as string | undefined) ?? '', configFile: file, configFileField },
    matchConditions: ((w.matchConditions ?? []) as ({ expression?: string } | null)[]).map((m) => ({
      expression: m?.expression ?? '',
    })),
  };
}

/** Decodes the file's text (YAML or JSON) with upstream's defaults applied. */
export function decodeAuthorizationConfig(
  text: string,
  profile: NamingProfile = namingProfile('spec'),
): AuthorizationConfiguration {
  const obj = decodeConfigFile(text, {
    group: authenticationConfigGroup(profile),
    profile,
    kind: AUTHORIZATION_CONFIG_KIND,
    versions: AUTHORIZATION_CONFIG_VERSIONS,
    shape: ROOT,
  }) as Dict;
  const list = (obj.authorizers ?? []) as (Dict | null)[];
  return {
    authorizers: list.map((a, i) => {
      const d = a ?? {};
      const out: AuthorizerConfiguration = {
        type: (d.type as string | undefined) ?? '',
        name: (d.name as string | undefined) ?? '',
      };
      if (d.webhook !== undefined && d.webhook !== null)
        out.webhook = webhookOf(d.webhook as Dict, `authorizers[${i}].webhook`);
      return out;
    }),
  };
}
