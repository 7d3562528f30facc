// Authentication's flags (service accounts, bootstrap tokens, OIDC, the configuration file, the
// token webhook, the authenticating proxy), with kube-apiserver's names and defaults, and their
// mapping onto AuthenticationOptions. Rules that tie several flags together are checked where the
// options are used (src/auth/authn/), so the library and the program refuse the same things.

import { AUTHN_DEFAULTS, type AuthenticationOptions } from '../auth/authn/options.ts';
import { type FlagSpec, type FlagValues, flag } from './flag-parser.ts';
import { bool, duration, list, pairs, text } from './flag-values.ts';

const optionalText = (name: string, arg: string, description: string) =>
  flag<string | undefined>({ name, arg, description, parse: text, default: undefined });

const repeatedText = (name: string, arg: string, description: string) =>
  flag<string[] | undefined>({
    name,
    arg,
    description,
    repeatable: true,
    parse: (v) => [v],
    default: undefined,
  });

const commaList = (name: string, arg: string, description: string, fallback?: string[]) =>
  flag<string[] | undefined>({ name, arg, description, repeatable: true, parse: list, default: fallback });

function webhookVersion(v: string): 'v1' | 'v1beta1' {
  if (v !== 'v1' && v !== 'v1beta1') throw new Error('must be "v1" or "v1beta1"');
  return v;
}

export const AUTHN_FLAGS: FlagSpec[] = [
  repeatedText(
    'service-account-key-file',
    '<file>',
    'PEM keys that verify service account tokens (repeatable; default: the serving key)',
  ),
  optionalText(
    'service-account-signing-key-file',
    '<file>',
    'PEM private key that signs service account tokens',
  ),
  repeatedText(
    'service-account-issuer',
    '<url>',
    'issuer of service account tokens (repeatable; the first one issues)',
  ),
  optionalText('service-account-jwks-uri', '<url>', 'JWKS URI advertised by the issuer discovery document'),
  flag<number | undefined>({
    name: 'service-account-max-token-expiration',
    arg: '<duration>',
    description: 'longest lifetime a token request may be granted',
    parse: duration,
    default: undefined,
  }),
  flag({
    name: 'service-account-extend-token-expiration',
    boolean: true,
    description: 'give projected tokens a year of life, warning when used past their nominal expiry',
    parse: bool,
    default: AUTHN_DEFAULTS.serviceAccountExtendTokenExpiration,
  }),
  flag({
    name: 'service-account-lookup',
    boolean: true,
    description: 'refuse tokens whose service account (or bound object) is gone',
    parse: bool,
    default: AUTHN_DEFAULTS.serviceAccountLookup,
  }),
  commaList('api-audiences', '<aud,...>', 'audiences of the API (default: the service account issuers)'),
  flag({
    name: 'enable-bootstrap-token-auth',
    boolean: true,
    description: 'accept bootstrap tokens from Secrets in the system namespace',
    parse: bool,
    default: false,
  }),
  optionalText('oidc-issuer-url', '<url>', 'https URL of the OpenID issuer whose ID tokens are accepted'),
  optionalText('oidc-client-id', '<id>', 'client id that OpenID tokens must be issued for'),
  optionalText('oidc-ca-file', '<file>', "CA that signed the issuer's serving certificate"),
  flag({
    name: 'oidc-username-claim',
    arg: '<claim>',
    description: 'claim that holds the user name',
    parse: text,
    default: AUTHN_DEFAULTS.oidcUsernameClaim,
  }),
  optionalText('oidc-username-prefix', '<prefix>', "prefix of OpenID user names ('-' for none)"),
  optionalText('oidc-groups-claim', '<claim>', 'claim that holds the groups'),
  optionalText('oidc-groups-prefix', '<prefix>', 'prefix of OpenID group names'),
  flag<Record<string, string> | undefined>({
    name: 'oidc-required-claim',
    arg: '<key=value>',
    description: 'claim that must be present with this value (repeatable)',
    repeatable: true,
    parse: pairs,
    default: undefined,
  }),
  commaList('oidc-signing-algs', '<alg,...>', 'signing algorithms accepted', [
    ...AUTHN_DEFAULTS.oidcSigningAlgs,
  ]),
  optionalText(
    'authentication-config',
    '<file>',
    'AuthenticationConfiguration file (JWT authenticators, anonymous access)',
  ),
  optionalText(
    'authentication-token-webhook-config-file',
    '<file>',
    'client configuration file of the token review webhook',
  ),
  flag({
    name: 'authentication-token-webhook-cache-ttl',
    arg: '<duration>',
    description: "how long the webhook's answers are remembered",
    parse: duration,
    default: AUTHN_DEFAULTS.tokenWebhookCacheTtlMs,
  }),
  flag({
    name: 'authentication-token-webhook-version',
    arg: '<version>',
    description: 'TokenReview version sent to the webhook (v1 or v1beta1)',
    parse: webhookVersion,
    default: AUTHN_DEFAULTS.tokenWebhookVersion,
  }),
  optionalText(
    'requestheader-client-ca-file',
    '<file>',
    'CA of the authenticating proxy whose headers name the user',
  ),
  commaList(
    'requestheader-allowed-names',
    '<cn,...>',
    "common names the proxy's certificate may have (empty: any)",
  ),
  commaList('requestheader-username-headers', '<header,...>', 'headers that name the user'),
  commaList('requestheader-uid-headers', '<header,...>', "headers that hold the user's uid"),
  commaList('requestheader-group-headers', '<header,...>', "headers that hold the user's groups"),
  commaList(
    'requestheader-extra-headers-prefix',
    '<prefix,...>',
    'header prefixes of extra user information',
  ),
];

/**
 * AuthenticationOptions from parsed flag values and the names of the flags given. The OIDC section
 * exists when any --oidc-* flag was given (so that a client id without an issuer is refused, as
 * upstream refuses it); the webhook and proxy sections when their file flag was.
 */
export function authenticationOptionsFrom(
  f: FlagValues,
  given: ReadonlySet<string> = new Set(),
): AuthenticationOptions {
  const s = (name: string) => f[name] as string | undefined;
  const a = (name: string) => f[name] as string[] | undefined;
  const o: AuthenticationOptions = {
    serviceAccount: {
      keyFiles: a('service-account-key-file'),
      signingKeyFile: s('service-account-signing-key-file'),
      issuers: a('service-account-issuer'),
      jwksUri: s('service-account-jwks-uri'),
      maxTokenExpirationMs: f['service-account-max-token-expiration'] as number | undefined,
      extendTokenExpiration: f['service-account-extend-token-expiration'] as boolean,
      lookup: f['service-account-lookup'] as boolean,
    },
    apiAudiences: a('api-audiences'),
    enableBootstrapTokenAuth: f['enable-bootstrap-token-auth'] as boolean,
    configFile: s('authentication-config'),
    anonymousAuthGiven: given.has('anonymous-auth'),
  };
  if ([...given].some((n) => n.startsWith('oidc-'))) {
    o.oidc = {
      issuerUrl: s('oidc-issuer-url') ?? '',
      clientId: s('oidc-client-id'),
      caFile: s('oidc-ca-file'),
      usernameClaim: s('oidc-username-claim'),
      usernamePrefix: s('oidc-username-prefix'),
      groupsClaim: s('oidc-groups-claim'),
      groupsPrefix: s('oidc-groups-prefix'),
      requiredClaims: f['oidc-required-claim'] as Record<string, string> | undefined,
      signingAlgs: a('oidc-signing-algs'),
    };
  }
  const webhook = s('authentication-token-webhook-config-file');
  if (webhook !== undefined) {
    o.tokenWebhook = {
      configFile: webhook,
      cacheTtlMs: f['authentication-token-webhook-cache-ttl'] as number,
      version: f['authentication-token-webhook-version'] as 'v1' | 'v1beta1',
    };
  }
  const proxyCa = s('requestheader-client-ca-file');
  if (proxyCa !== undefined) {
    o.requestHeader = {
      clientCaFile: proxyCa,
      allowedNames: a('requestheader-allowed-names'),
      usernameHeaders: a('requestheader-username-headers'),
      uidHeaders: a('requestheader-uid-headers'),
      groupHeaders: a('requestheader-group-headers'),
      extraHeaderPrefixes: a('requestheader-extra-headers-prefix'),
    };
  }
  return o;
}
