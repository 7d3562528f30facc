// Everything authentication is configured with, as kube-apiserver's flags group it. The program's
// flags map onto these one to one (src/cmd/apiserver-flags.ts); config.ts turns them into the
// authenticator chain. Durations are milliseconds.

export interface ServiceAccountOptions {
  /** PEM files of public (or private) keys that verify service account tokens (`--service-account-key-file`, repeatable). */
  keyFiles?: string[];
  /** PEM private key that signs the tokens the server issues (`--service-account-signing-key-file`). */
  signingKeyFile?: string;
  /** Issuer identifiers: the first is put in new tokens, all are accepted (`--service-account-issuer`). */
  issuers?: string[];
  /** Overrides the JWKS URI advertised in the discovery document (`--service-account-jwks-uri`). */
  jwksUri?: string;
  /** Longest lifetime a TokenRequest may ask for (`--service-account-max-token-expiration`); unset: no cap. */
  maxTokenExpirationMs?: number;
  /** Issue a year-long token to a Pod's projected volume, warning when it is used past its nominal expiry (`--service-account-extend-token-expiration`, default true). */
  extendTokenExpiration?: boolean;
  /** Check that the token's ServiceAccount (and bound object) still exists with the same uid (`--service-account-lookup`, default true). */
  lookup?: boolean;
}

export interface OidcOptions {
  /** `--oidc-issuer-url`: https only; turns the authenticator on. */
  issuerUrl: string;
  /** `--oidc-client-id`: the audience tokens must carry. */
  clientId?: string;
  /** `--oidc-ca-file`: CA for the issuer's discovery and JWKS; the host's roots when unset. */
  caFile?: string;
  /** `--oidc-username-claim` (default `sub`). */
  usernameClaim?: string;
  /** `--oidc-username-prefix`: `-` means none; unset means `<issuer>#` for claims other than email. */
  usernamePrefix?: string;
  /** `--oidc-groups-claim`. */
  groupsClaim?: string;
  /** `--oidc-groups-prefix`. */
  groupsPrefix?: string;
  /** `--oidc-required-claim key=value`, repeatable. */
  requiredClaims?: Record<string, string>;
  /** `--oidc-signing-algs` (default RS256). */
  signingAlgs?: string[];
}

export interface TokenWebhookOptions {
  /** `--authentication-token-webhook-config-file`: a client configuration file naming the webhook. */
  configFile: string;
  /** `--authentication-token-webhook-cache-ttl` (default 2 minutes). */
  cacheTtlMs?: number;
  /** `--authentication-token-webhook-version`: `v1` or `v1beta1` (default). */
  version?: 'v1' | 'v1beta1';
}

export interface RequestHeaderOptions {
  /** `--requestheader-client-ca-file`: only client certificates from this CA may assert a user. */
  clientCaFile: string;
  /** `--requestheader-allowed-names`: common names allowed; empty allows any from the CA. */
  allowedNames?: string[];
  /** `--requestheader-username-headers`. */
  usernameHeaders?: string[];
  /** `--requestheader-uid-headers`. */
  uidHeaders?: string[];
  /** `--requestheader-group-headers`. */
  groupHeaders?: string[];
  /** `--requestheader-extra-headers-prefix`. */
  extraHeaderPrefixes?: string[];
}

export interface AuthenticationOptions {
  serviceAccount?: ServiceAccountOptions;
  /** Audiences of the API (`--api-audiences`); default: the service account issuers. */
  apiAudiences?: string[];
  /** `--enable-bootstrap-token-auth`. */
  enableBootstrapTokenAuth?: boolean;
  oidc?: OidcOptions;
  /** `--authentication-config`: an AuthenticationConfiguration file (jwt authenticators, anonymous). */
  configFile?: string;
  tokenWebhook?: TokenWebhookOptions;
  requestHeader?: RequestHeaderOptions;
  /**
   * `--anonymous-auth` was given explicitly: an AuthenticationConfiguration with an anonymous
   * section then conflicts with it, as upstream refuses the two together.
   */
  anonymousAuthGiven?: boolean;
  /** How long a successful token authentication is remembered (upstream: 10 s). */
  tokenSuccessCacheTtlMs?: number;
  /** How long a failed one is remembered (upstream: 0, not at all). */
  tokenFailureCacheTtlMs?: number;
}

export const AUTHN_DEFAULTS = {
  tokenSuccessCacheTtlMs: 10_000,
  tokenFailureCacheTtlMs: 0,
  tokenWebhookCacheTtlMs: 120_000,
  tokenWebhookVersion: 'v1beta1',
  oidcUsernameClaim: 'sub',
  oidcSigningAlgs: ['RS256'],
  serviceAccountLookup: true,
  serviceAccountExtendTokenExpiration: true,
} as const;
