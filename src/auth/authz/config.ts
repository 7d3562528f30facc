// The authorizer chain as the options ask for it, built in this one place: the privileged group
// (system:masters) first as upstream puts it, health and version for anyone, then either the
// --authorization-mode list in its order (with the ABAC policy file and the webhook flags) or the
// authorizers of an --authorization-config file, which is reloaded on change and every minute (an
// invalid new file keeps the authorizers in force, and is logged and counted). Without either, the
// default chain of modes.ts applies. Flag combinations upstream refuses stop the start here.

import { readFileSync } from 'node:fs';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { type NamingProfile, namingProfile } from '../../naming/profile.ts';
import { apiServerId } from '../apiserver-id.ts';
import { ConfigFileReloader, type ReloadAttempt } from '../authn/authentication-config-reload.ts';
import { ConfigReloadMetrics } from '../authn/config-reload-metrics.ts';
import type { UserInfo } from '../authn/types.ts';
import { loadWebhookClientConfig } from '../authn/webhook-client-config.ts';
import { AbacAuthorizer } from './abac.ts';
import { alwaysAllow, alwaysDeny } from './always.ts';
import { authenticatedUsers } from './authenticated-users.ts';
import {
  type AuthorizationConfiguration,
  decodeAuthorizationConfig,
  IN_CLUSTER_CONFIG,
} from './authorization-config.ts';
import { validateAuthorizationConfig } from './authorization-config-validation.ts';
import { discoveryInfo } from './discovery-info.ts';
import { AuthorizationAttemptMetrics, AuthorizationMetrics } from './metrics.ts';
import type { AuthorizationMode } from './modes.ts';
import { createNodeAuthorizer } from './node/create.ts';
import { AUTHZ_DEFAULTS, type AuthorizationOptions, validateAuthorizationOptions } from './options.ts';
import { privilegedGroups } from './privileged-groups.ts';
import { publicInfo } from './public-info.ts';
import type { Attributes, Authorizer, RuleResolver, RulesResult, Verdict } from './types.ts';
import { AuthzChain } from './union.ts';
import { AUTHZ_WEBHOOK_TIMEOUT_MS, WebhookAuthorizer } from './webhook.ts';

/** `--authorization-mode` when not given, as a production kube-apiserver is started. */
export const DEFAULT_AUTHORIZATION_MODES: readonly AuthorizationMode[] = ['Node', 'RBAC'];

export interface AuthzSetup extends AuthorizationOptions {
  /** `--authorization-mode` as given; undefined is the default chain. */
  modes?: readonly AuthorizationMode[];
  profile?: NamingProfile;
  /** Builds the RBAC authorizer (it reads the server's watch cache); the RBAC mode needs it. */
  rbac?: () => Authorizer;
  /**
   * Builds the Node authorizer over the server's graph of bound Pods; without it the Node mode
   * decides from an empty graph (fixed rules, own Node and Lease, nothing linked through Pods).
   */
  node?: () => Authorizer & RuleResolver;
  log?: (message: string) => void;
  /** Periodic re-check of the configuration file (upstream: one minute). */
  reloadIntervalMs?: number;
  /** The server's metrics registry: decisions and configuration reloads are counted there. */
  metrics?: MetricsRegistry;
  /** The server's identity (apiserver-id.ts), hashed into reload metrics; derived from the host when absent. */
  apiServerId?: string;
}

/** Upstream's name for a --authorization-mode authorizer: the mode lower-cased, `default` for the webhook. */
export function modeAuthorizerName(m: AuthorizationMode): string {
  return m === 'Webhook' ? 'default' : m.toLowerCase();
}

export interface Authorization {
  /** What the request filter asks. */
  authorizer: AuthzChain;
  /** The configuration file's reloader (its metrics), with --authorization-config only. */
  reloader?: ConfigFileReloader;
  /**
   * The request filter's attempts and latency (authorization_attempts_total,
   * authorization_duration_seconds), when the setup had a registry: the filter records into it.
   */
  attempts?: AuthorizationAttemptMetrics;
  /** Stops reloads and webhook connections. */
  close(): void;
}

/** A set of authorizers and what must be closed with them. */
interface Built {
  chain: AuthzChain;
  closers: (() => void)[];
}

function rbacOf(o: AuthzSetup): Authorizer {
  if (o.rbac === undefined) throw new Error('authorization mode RBAC is not available in this server');
  return o.rbac();
}

function authorizerFor(
  m: AuthorizationMode,
  o: AuthzSetup,
  closers: (() => void)[],
  metrics: AuthorizationMetrics | undefined,
): Authorizer {
  const profile = o.profile ?? namingProfile('spec');
  switch (m) {
    case 'AlwaysAllow':
      return alwaysAllow;
    case 'AlwaysDeny':
      return alwaysDeny;
    case 'Node':
      return o.node?.() ?? createNodeAuthorizer(undefined, profile).authorizer;
    case 'RBAC':
      return rbacOf(o);
    case 'ABAC':
      return AbacAuthorizer.fromFile(o.policyFile ?? '', profile);
    case 'Webhook': {
      const w = o.webhook ?? {};
      const authz = new WebhookAuthorizer({
        config: loadWebhookClientConfig(w.configFile ?? ''),
        version: w.version ?? AUTHZ_DEFAULTS.webhookVersion,
        authorizedTtlMs: w.authorizedTtlMs ?? AUTHZ_DEFAULTS.webhookAuthorizedTtlMs,
        unauthorizedTtlMs: w.unauthorizedTtlMs ?? AUTHZ_DEFAULTS.webhookUnauthorizedTtlMs,
        timeoutMs: AUTHZ_WEBHOOK_TIMEOUT_MS,
        profile,
        name: modeAuthorizerName('Webhook'),
        metrics,
      });
      closers.push(() => authz.close());
      return authz;
    }
  }
  throw new Error(`unknown authorization mode ${JSON.stringify(m)}`);
}

/** The authorizer counted under its type and name when there are metrics. */
function counted(
  metrics: AuthorizationMetrics | undefined,
  type: string,
  name: string,
  a: Authorizer,
): Authorizer {
  return metrics === undefined ? a : metrics.instrument(type, name, a);
}

function fromModes(
  o: AuthzSetup,
  modes: readonly AuthorizationMode[],
  metrics: AuthorizationMetrics | undefined,
): Built {
  const closers: (() => void)[] = [];
  try {
    const list = modes.map((m) =>
      counted(metrics, m, modeAuthorizerName(m), authorizerFor(m, o, closers, metrics)),
    );
    return { chain: new AuthzChain(list), closers };
  } catch (err) {
    for (const c of closers) c();
    throw err;
  }
}

/** The authorizers of a validated configuration; throws (closing what it built) when one cannot be made. */
function fromConfiguration(
  o: AuthzSetup,
  c: AuthorizationConfiguration,
  metrics: AuthorizationMetrics | undefined,
): Built {
  const conditions = validateAuthorizationConfig(c);
  const closers: (() => void)[] = [];
  try {
    const list = c.authorizers.map((a, i): Authorizer => {
      if (a.type !== 'Webhook' || a.webhook === undefined) {
        return counted(
          metrics,
          a.type,
          a.name,
          authorizerFor(a.type as AuthorizationMode, o, closers, metrics),
        );
      }
      const w = a.webhook;
      if (w.connectionInfo.type === IN_CLUSTER_CONFIG) {
        throw new Error(
          `authorizers[${i}].webhook.connectionInfo.type: ${IN_CLUSTER_CONFIG} is not supported: the API server cannot call itself as an authorization webhook`,
        );
      }
      const authz = new WebhookAuthorizer({
        config: loadWebhookClientConfig(w.connectionInfo.configFile ?? ''),
        version: w.subjectAccessReviewVersion as 'v1' | 'v1beta1',
        authorizedTtlMs: w.authorizedTTL,
        unauthorizedTtlMs: w.unauthorizedTTL,
        cacheAuthorized: w.cacheAuthorizedRequests,
        cacheUnauthorized: w.cacheUnauthorizedRequests,
        timeoutMs: w.timeout,
        failurePolicy: w.failurePolicy as 'NoOpinion' | 'Deny',
        matchConditions: conditions.get(i) ?? [],
        profile: o.profile,
        name: a.name,
        metrics,
      });
      closers.push(() => authz.close());
      return counted(metrics, a.type, a.name, authz);
    });
    return { chain: new AuthzChain(list), closers };
  } catch (err) {
    for (const c of closers) c();
    throw err;
  }
}

/** The configuration file's authorizers, swapped whole when a new valid file is applied. */
class ReloadingChain implements Authorizer, RuleResolver {
  constructor(private current: Built) {}

  authorize(a: Attributes): Promise<Verdict> {
    return this.current.chain.authorize(a);
  }

  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    return this.current.chain.rulesFor(user, namespace);
  }

  swap(next: Built): void {
    const old = this.current;
    this.current = next;
    for (const c of old.closers) c();
  }

  close(): void {
    for (const c of this.current.closers) c();
  }
}

function fromConfigFile(
  o: AuthzSetup,
  file: string,
  metrics: AuthorizationMetrics | undefined,
): { inner: ReloadingChain; reloader: ConfigFileReloader } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`failed to read authorization config file ${file}: ${(err as Error).message}`);
  }
  const inner = new ReloadingChain(fromConfiguration(o, decodeAuthorizationConfig(text, o.profile), metrics));
  const apply = async (next: string): Promise<ReloadAttempt> => {
    try {
      inner.swap(fromConfiguration(o, decodeAuthorizationConfig(next, o.profile), metrics));
      return { kind: 'applied' };
    } catch (err) {
      return { kind: 'invalid', error: (err as Error).message };
    }
  };
  const reloader = new ConfigFileReloader({
    file,
    initialText: text,
    apply,
    intervalMs: o.reloadIntervalMs,
    log: o.log,
    subject: 'authorization',
    ...(o.metrics === undefined
      ? {}
      : {
          recorder: new ConfigReloadMetrics(
            o.metrics,
            'authorization',
            o.apiServerId ?? apiServerId(o.profile ?? namingProfile('spec')),
          ),
        }),
  }).start();
  return { inner, reloader };
}

/** Throws (the server does not start) for refused flag combinations and bad files. */
export function buildAuthorization(o: AuthzSetup): Authorization {
  validateAuthorizationOptions(o.modes, o);
  const front = [privilegedGroups(), publicInfo];
  const metrics = o.metrics === undefined ? undefined : new AuthorizationMetrics(o.metrics);
  const attempts = o.metrics === undefined ? undefined : new AuthorizationAttemptMetrics(o.metrics);
  if (o.configFile !== undefined && o.configFile !== '') {
    const { inner, reloader } = fromConfigFile(o, o.configFile, metrics);
    return {
      authorizer: new AuthzChain([...front, inner]),
      reloader,
      attempts,
      close() {
        reloader.close();
        inner.close();
      },
    };
  }
  // The default is a production server's, Node then RBAC; a library caller without RBAC gets the
  // interim chain (authenticated users may do anything, anonymous ones read public and discovery
  // documents only).
  if (o.modes === undefined && o.rbac === undefined) {
    return {
      authorizer: new AuthzChain([...front, discoveryInfo, authenticatedUsers]),
      attempts,
      close() {},
    };
  }
  const built = fromModes(o, o.modes ?? DEFAULT_AUTHORIZATION_MODES, metrics);
  return {
    authorizer: new AuthzChain([...front, built.chain]),
    attempts,
    close() {
      for (const c of built.closers) c();
    },
  };
}
