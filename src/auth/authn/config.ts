// The authenticator chain as the options ask for it, built in this one place, in upstream's order:
// the authenticating proxy's headers, client certificates, then bearer tokens (static file,
// service accounts, bootstrap tokens, JWT issuers, the webhook), and anonymous last unless turned
// off. Token authenticators sit behind one short-lived cache, as upstream's do; the webhook keeps
// its own, longer one.

import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { type NamingProfile, namingProfile } from '../../naming/profile.ts';
import { BearerTokenAuthenticator } from './bearer-token.ts';
import { BootstrapTokenAuthenticator, bootstrapNames } from './bootstrap-token.ts';
import { type JwtSetup, type JwtSetupInput, setUpJwtAuthenticators } from './jwt-setup.ts';
import { usernameFolder } from './metrics.ts';
import { AUTHN_DEFAULTS, type AuthenticationOptions } from './options.ts';
import { RequestHeaderAuthenticator } from './request-header.ts';
import { type ServiceAccountSetup, serviceAccountAuthenticators } from './service-account-setup.ts';
import { CachedTokenAuthenticator } from './token-cache.ts';
import { TokenCacheMetrics } from './token-cache-metrics.ts';
import { TokenFileAuthenticator } from './token-file.ts';
import { TokenUnion } from './token-union.ts';
import { WebhookTokenAuthenticator } from './token-webhook.ts';
import type { Authenticator, ObjectReader, TokenAuthenticator } from './types.ts';
import { AuthnChain } from './union.ts';
import { X509Authenticator } from './x509.ts';

export interface AuthnSetup extends AuthenticationOptions {
  /** Client certificates are checked against a CA (the TLS layer verifies; x509 reads its verdict). */
  clientCertificates: boolean;
  /** `--token-auth-file`. */
  tokenAuthFile?: string;
  /** `--anonymous-auth` (default true). */
  anonymous?: boolean;
  /** Where ServiceAccounts, Secrets and bound objects are looked up. */
  objects: ObjectReader;
  /** The data directory's PKI folder: generated keys (the service account signing key) live there. */
  pkiDir: string;
  /** The serving key (PEM): verifies service account tokens when no key file is given, as upstream. */
  servingKeyPem: string;
  /** Service account keys, issuers and rules (service-account-setup.ts); no service account tokens without. */
  serviceAccounts?: ServiceAccountSetup;
  /** JWT authenticators' context (naming profile, whether --anonymous-auth was given, reload timing). */
  jwt?: Omit<JwtSetupInput, 'oidc' | 'configFile' | 'serviceAccountIssuers'>;
  /** Names of the bootstrap token Secrets and of the groups webhook answers may come in (default: spec). */
  profile?: NamingProfile;
  /** The server's metrics registry: authenticators define their metrics there. */
  metrics?: MetricsRegistry;
  /** The server's identity (apiserver-id.ts), hashed into metric labels; derived from the host when absent. */
  apiServerId?: string;
}

export interface Authentication {
  /** What the request filter asks. */
  chain: AuthnChain;
  /** Every token authenticator behind the cache: what TokenReview asks. */
  tokens: TokenAuthenticator;
  /** The audiences a token must be good for on this API (`--api-audiences`, else the issuers). */
  apiAudiences: string[];
  /** Stops refreshes and file watches. */
  close(): void;
}

/** Token authenticators in upstream's order. Each kind adds itself here. */
function tokenAuthenticators(
  o: AuthnSetup,
  jwt: JwtSetup,
  webhook?: TokenAuthenticator,
): TokenAuthenticator[] {
  const list: TokenAuthenticator[] = [];
  if (o.tokenAuthFile !== undefined) list.push(TokenFileAuthenticator.fromFile(o.tokenAuthFile));
  if (o.serviceAccounts !== undefined)
    list.push(...serviceAccountAuthenticators(o.serviceAccounts, o.objects));
  if (o.enableBootstrapTokenAuth)
    list.push(new BootstrapTokenAuthenticator(o.objects, bootstrapNames(o.profile ?? namingProfile('spec'))));
  if (jwt.tokens !== undefined) list.push(jwt.tokens);
  if (webhook !== undefined) list.push(webhook);
  return list;
}

export function apiAudiencesOf(o: AuthenticationOptions): string[] {
  if (o.apiAudiences !== undefined && o.apiAudiences.length > 0) return [...o.apiAudiences];
  return [...(o.serviceAccount?.issuers ?? [])];
}

/** The file's anonymous conditions, as paths; none (or an empty list) means every path. */
function anonymousPathsOf(jwt: JwtSetup): string[] | undefined {
  const conditions = jwt.anonymous?.enabled ? jwt.anonymous.conditions : undefined;
  return conditions !== undefined && conditions.length > 0 ? conditions.map((c) => c.path) : undefined;
}

export function buildAuthentication(o: AuthnSetup): Authentication {
  const apiAudiences = apiAudiencesOf(o);
  // These read their files and throw when they are bad; first, so that nothing is left running.
  const proxy = o.requestHeader && RequestHeaderAuthenticator.fromOptions(o.requestHeader);
  // One set of token cache metrics: the webhook's own cache records into them too, as upstream's.
  const cacheMetrics = o.metrics === undefined ? undefined : new TokenCacheMetrics(o.metrics);
  const webhook =
    o.tokenWebhook &&
    WebhookTokenAuthenticator.fromOptions(
      o.tokenWebhook,
      apiAudiences,
      o.profile ?? namingProfile('spec'),
      cacheMetrics,
    );
  // Throws for bad --oidc-* flags or a bad --authentication-config file: the server does not start.
  const jwt = setUpJwtAuthenticators({
    ...o.jwt,
    metrics: o.metrics,
    apiServerId: o.apiServerId,
    oidc: o.oidc,
    configFile: o.configFile,
    serviceAccountIssuers: o.serviceAccount?.issuers,
  });
  const tokens = new CachedTokenAuthenticator(new TokenUnion(tokenAuthenticators(o, jwt, webhook)), {
    successTtlMs: o.tokenSuccessCacheTtlMs ?? AUTHN_DEFAULTS.tokenSuccessCacheTtlMs,
    failureTtlMs: o.tokenFailureCacheTtlMs ?? AUTHN_DEFAULTS.tokenFailureCacheTtlMs,
    ...(cacheMetrics === undefined ? {} : { metrics: cacheMetrics }),
  });
  const authenticators: Authenticator[] = [];
  if (proxy !== undefined) authenticators.push(proxy);
  if (o.clientCertificates) authenticators.push(new X509Authenticator());
  authenticators.push(new BearerTokenAuthenticator(tokens, apiAudiences));
  return {
    chain: new AuthnChain({
      authenticators,
      anonymous: jwt.anonymous?.enabled ?? o.anonymous ?? true,
      anonymousPaths: anonymousPathsOf(jwt),
      metrics: o.metrics,
      foldUsername: usernameFolder(o.profile ?? namingProfile('spec')),
    }),
    tokens,
    apiAudiences,
    close() {
      jwt.close();
      webhook?.close();
    },
  };
}
