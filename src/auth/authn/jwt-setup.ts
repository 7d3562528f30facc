// JWT authenticators from the options: the --oidc-* flags or the --authentication-config file (not
// both), validated before the server starts (a bad flag or file throws, with upstream's message
// and field paths, and startServer rejects), and for the file form reloaded while it runs. The
// anonymous section of the file replaces --anonymous-auth, which may then not be given.

import { readFileSync } from 'node:fs';
import {
  aggregateMessage,
  deepEqual,
  type FieldError,
  forbidden,
  newPath,
} from '../../machinery/field-errors.ts';
import { loggerFor } from '../../machinery/logging/index.ts';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { type NamingProfile, namingProfile } from '../../naming/index.ts';
import { apiServerId } from '../apiserver-id.ts';
import {
  type AnonymousConfig,
  type AuthenticationConfiguration,
  decodeAuthenticationConfig,
} from './authentication-config.ts';
import {
  ConfigFileReloader,
  type ReloadAttempt,
  type ReloadMetrics,
} from './authentication-config-reload.ts';
import {
  type CompiledJwtAuthenticator,
  validateAuthenticationConfiguration,
} from './authentication-config-validation.ts';
import { ConfigReloadMetrics } from './config-reload-metrics.ts';
import { JwtAuthenticator } from './jwt-authenticator.ts';
import { JwtMetrics } from './jwt-metrics.ts';
import { JwtAuthenticatorSet } from './jwt-set.ts';
import { ALLOWED_SIGNING_ALGS } from './jwt-verify.ts';
import { jwtAuthenticatorFromFlags, oidcFlagsError, oidcSigningAlgs } from './oidc-flags.ts';
import type { ProviderOptions } from './oidc-provider.ts';
import type { OidcOptions } from './options.ts';

const jwtLog = loggerFor('authn/jwt');

export interface JwtSetupInput {
  oidc?: OidcOptions;
  configFile?: string;
  profile?: NamingProfile;
  /** The service account issuers: no JWT authenticator may claim one. */
  serviceAccountIssuers?: readonly string[];
  /** Whether --anonymous-auth was given (it may not be, beside a file's anonymous section). */
  anonymousFlagSet?: boolean;
  /** Periodic re-read of the file (upstream: one minute). */
  reloadIntervalMs?: number;
  /** How long a reload waits for new issuers to answer before it is refused (upstream: one minute). */
  reloadReadyTimeoutMs?: number;
  /** Provider timing overrides (tests). */
  provider?: Partial<ProviderOptions>;
  log?: (message: string) => void;
  /** The server's metrics registry: JWT latency and the file's reload metrics are recorded there. */
  metrics?: MetricsRegistry;
  /** The server's identity (apiserver-id.ts; derived from the host when absent), hashed into reload metrics. */
  apiServerId?: string;
}

export interface JwtSetup {
  /** The JWT token authenticators; undefined when neither flags nor file configure any. */
  tokens?: JwtAuthenticatorSet;
  /** The file's anonymous section, when it has one. */
  anonymous?: AnonymousConfig;
  /** The file's reload outcomes (file form only). */
  metrics?: ReloadMetrics;
  /** Checks the file now (file form only); resolves when that check is done. */
  reload?: () => Promise<void>;
  close(): void;
}

/** A configuration the server cannot start with. */
export class AuthenticationConfigError extends Error {
  override name = 'AuthenticationConfigError';
}

const RELOAD_READY_TIMEOUT_MS = 60_000;

export function setUpJwtAuthenticators(input: JwtSetupInput): JwtSetup {
  const log = input.log ?? ((m: string) => jwtLog.infoText(m));
  const profile = input.profile ?? namingProfile('spec');
  const disallowedIssuers = input.serviceAccountIssuers ?? [];
  const provider = { log, ...input.provider };
  const serverId = input.apiServerId ?? apiServerId(profile);
  const jwtMetrics = input.metrics === undefined ? undefined : new JwtMetrics(input.metrics, serverId);

  if (input.configFile === undefined || input.configFile === '') {
    if (input.oidc === undefined) return { close() {} };
    const flagsError = oidcFlagsError(input.oidc);
    if (flagsError !== undefined) throw new AuthenticationConfigError(flagsError);
    const algs = oidcSigningAlgs(input.oidc);
    const config: AuthenticationConfiguration = { jwt: [jwtAuthenticatorFromFlags(input.oidc)] };
    const compiled = validated(config, disallowedIssuers, profile);
    const tokens = new JwtAuthenticatorSet(start(compiled, algs, provider, jwtMetrics), jwtMetrics);
    return { tokens, close: () => tokens.close() };
  }

  if (input.oidc !== undefined) {
    throw new AuthenticationConfigError('authentication-config file and oidc-* flags are mutually exclusive');
  }
  const file = input.configFile;
  let text: string;
  let config: AuthenticationConfiguration;
  try {
    text = readFileSync(file, 'utf8');
    config = decodeAuthenticationConfig(text, profile);
  } catch (err) {
    throw new AuthenticationConfigError(
      `failed to load authentication configuration from file ${JSON.stringify(file)}: ${(err as Error).message}`,
    );
  }
  if (config.anonymous !== undefined && input.anonymousFlagSet === true) {
    throw new AuthenticationConfigError(
      aggregateMessage([
        forbidden(
          newPath('anonymous'),
          '--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file',
        ),
      ]),
    );
  }
  const compiled = validated(config, disallowedIssuers, profile);
  // With the file, any allowed algorithm is fine as long as a key of the issuer verifies it.
  const tokens = new JwtAuthenticatorSet(
    start(compiled, ALLOWED_SIGNING_ALGS, provider, jwtMetrics),
    jwtMetrics,
  );
  const initialAnonymous = config.anonymous;

  const apply = async (next: string): Promise<ReloadAttempt> => {
    let c: AuthenticationConfiguration;
    try {
      c = decodeAuthenticationConfig(next, profile);
    } catch (err) {
      return { kind: 'invalid', error: (err as Error).message };
    }
    const r = validateAuthenticationConfiguration(c, { disallowedIssuers, profile });
    const errors: FieldError[] = [...r.errors];
    if (!deepEqual(initialAnonymous, c.anonymous)) {
      errors.push(forbidden(newPath('anonymous'), 'changed from initial configuration file'));
    }
    if (errors.length > 0) return { kind: 'invalid', error: aggregateMessage(errors) };
    const fresh = start(r.authenticators, ALLOWED_SIGNING_ALGS, provider, jwtMetrics);
    const ready = await allReady(fresh, input.reloadReadyTimeoutMs ?? RELOAD_READY_TIMEOUT_MS);
    if (!ready) {
      for (const a of fresh) a.close();
      const why = fresh.map((a) => a.provider.lastError).filter((e) => e !== '');
      return { kind: 'retry', error: `new JWT authenticators did not become ready: ${why.join('; ')}` };
    }
    tokens.replace(fresh);
    jwtMetrics?.keepOnly(new Set(fresh.map((a) => a.issuer)));
    return { kind: 'applied' };
  };
  const reloader = new ConfigFileReloader({
    file,
    initialText: text,
    apply,
    intervalMs: input.reloadIntervalMs,
    log,
    ...(input.metrics === undefined
      ? {}
      : {
          recorder: new ConfigReloadMetrics(input.metrics, 'authentication', serverId),
        }),
  }).start();
  return {
    tokens,
    ...(config.anonymous !== undefined ? { anonymous: config.anonymous } : {}),
    metrics: reloader.metrics,
    reload: () => reloader.check(),
    close() {
      reloader.close();
      tokens.close();
    },
  };
}

function validated(
  config: AuthenticationConfiguration,
  disallowedIssuers: readonly string[],
  profile: NamingProfile,
): CompiledJwtAuthenticator[] {
  const r = validateAuthenticationConfiguration(config, { disallowedIssuers, profile });
  if (r.errors.length > 0) {
    throw new AuthenticationConfigError(
      `invalid authentication configuration: ${aggregateMessage(r.errors)}`,
    );
  }
  return r.authenticators;
}

/** Starts the authenticators; with metrics, each reports its key set fetches under its issuer. */
function start(
  compiled: readonly CompiledJwtAuthenticator[],
  algs: readonly string[],
  provider: Partial<ProviderOptions>,
  metrics?: JwtMetrics,
): JwtAuthenticator[] {
  return compiled.map((c) => {
    const issuer = c.config.issuer.url;
    const withReports: Partial<ProviderOptions> =
      metrics === undefined
        ? provider
        : { ...provider, onKeySetFetch: (result, body) => metrics.keySetFetch(issuer, result, body) };
    return new JwtAuthenticator(c, { signingAlgs: algs, provider: withReports }).start();
  });
}

async function allReady(list: readonly JwtAuthenticator[], timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([Promise.all(list.map((a) => a.provider.ready)).then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
