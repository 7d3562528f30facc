// What a server is started with: the library's options (the program's flags map onto them one to
// one) and their defaults.

import type { AuthenticationOptions } from '../auth/authn/options.ts';
import type { AuthorizationMode } from '../auth/authz/modes.ts';
import type { AuthorizationOptions } from '../auth/authz/options.ts';
import type { ProfileName } from '../naming/profile.ts';
import type { AuditOptions } from './audit/options.ts';
import type { WatchBudget, WatchBudgetLimits } from './handlers/watch-budget.ts';

export interface ServerOptions {
  /** Embedded store and generated credentials live here. */
  dataDir: string;
  /** Serve watches and lists from the in-memory watch cache (`--watch-cache`, default true). */
  watchCache?: boolean;
  /**
   * History kept for watches and exact reads (`--etcd-compaction-interval`, default 5 minutes):
   * the SQLite store compacts what is older, and the watch cache replays no further back.
   */
  compactionIntervalMs?: number;
  /** How long an Event lives after its last write (`--event-ttl`, default 1 hour). */
  eventTtlMs?: number;
  /** A watch without timeoutSeconds ends after a random time between this and twice this (`--min-request-timeout`). */
  minRequestTimeoutSeconds?: number;
  bindAddress?: string;
  /** 0 picks a free port. */
  securePort?: number;
  storageBackend?: 'sqlite' | 'etcd3';
  etcdServers?: string[];
  etcdPrefix?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCaFile?: string;
  tokenAuthFile?: string;
  anonymousAuth?: boolean;
  /** Service accounts, bootstrap tokens, OIDC, the authentication configuration file, the token webhook, the authenticating proxy. */
  authentication?: AuthenticationOptions;
  /**
   * `--authorization-mode`. Unset: `Node,RBAC`, as a production kube-apiserver (the admin's
   * system:masters group may do anything, others what RBAC grants them).
   */
  authorizationModes?: AuthorizationMode[];
  /** The ABAC policy file, the `--authorization-webhook-*` flags, `--authorization-config`. */
  authorization?: AuthorizationOptions;
  featureGates?: Record<string, boolean>;
  /** Liveness failures are ignored this long after start. */
  livezGracePeriodMs?: number;
  /** On shutdown, /readyz fails this long before the listener stops accepting. */
  shutdownDelayMs?: number;
  naming?: ProfileName;
  /** Deadline of requests that are not long-running, reading their body included (`--request-timeout`). */
  requestTimeoutMs?: number;
  /**
   * Streams a client may have open on one HTTP/2 connection (`--http2-max-streams-per-connection`);
   * 0 or unset is upstream's 100.
   */
  http2MaxStreamsPerConnection?: number;
  /** Open connections past which new ones are refused with a 429 (`--max-connections`). */
  maxConnections?: number;
  /** A connection with no request in progress is closed after this long (upstream: 90 s). */
  idleTimeoutMs?: number;
  /** Time for a TLS handshake and for a request's headers (upstream: 32 s). */
  headerTimeoutMs?: number;
  /** How long in-flight requests may take to finish at shutdown. */
  shutdownGraceMs?: number;
  /**
   * Bounds on what watches whose clients do not read may hold (handlers/watch-budget.ts), or the
   * budget itself, to read how many watches it closed.
   */
  watchBudget?: Partial<WatchBudgetLimits> | WatchBudget;
  /**
   * `--show-hidden-metrics-for-version`: the previous minor release (`1.34`) brings back the
   * metrics deprecated before the current one; anything else stops the start.
   */
  showHiddenMetricsForVersion?: string;
  /** Audit policy and backends (`--audit-*`); no audit when absent. */
  audit?: AuditOptions;
}

export const DEFAULTS = {
  bindAddress: '127.0.0.1',
  securePort: 6443,
  storageBackend: 'sqlite',
  etcdPrefix: '/registry',
  anonymousAuth: true,
  livezGracePeriodMs: 0,
  shutdownDelayMs: 0,
  naming: 'spec',
  requestTimeoutMs: 60_000,
  shutdownGraceMs: 60_000,
  watchCache: true,
  compactionIntervalMs: 5 * 60_000,
  minRequestTimeoutSeconds: 1800,
  eventTtlMs: 60 * 60_000,
} as const;
