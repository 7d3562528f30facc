// The API server's flags, with kube-apiserver's names where they exist, parsed into ServerOptions.
// Anything unknown or malformed is a FlagError; the program prints it and exits 2.

import { AUTHORIZATION_MODES, type AuthorizationMode, isAuthorizationMode } from '../auth/authz/modes.ts';
import { METRICS_VERSION, validateShowHiddenVersion } from '../machinery/metrics/index.ts';
import type { ProfileName } from '../naming/profile.ts';
import { CONNECTION_DEFAULTS } from '../server/listener.ts';
import type { ServerOptions } from '../server/options.ts';
import { AUDIT_FLAGS, auditOptionsFrom } from './audit-flags.ts';
import { AUTHN_FLAGS, authenticationOptionsFrom } from './authn-flags.ts';
import { AUTHZ_FLAGS, authorizationOptionsFrom } from './authz-flags.ts';
import {
  FlagError,
  type FlagSpec,
  type FlagValues,
  flag,
  HelpRequested,
  parseFlagsGiven,
  usage,
} from './flag-parser.ts';
import { bool, duration, featureGatePairs, list, port, positive, seconds, text } from './flag-values.ts';
import { LOGGING_FLAGS } from './logging-flags.ts';

export { FlagError, HelpRequested };

function modes(v: string): AuthorizationMode[] {
  const out = list(v);
  for (const m of out) {
    if (!isAuthorizationMode(m)) {
      throw new Error(
        `authorization-mode ${JSON.stringify(m)} is not a valid mode (supported: ${AUTHORIZATION_MODES.join(', ')})`,
      );
    }
  }
  if (out.length === 0) throw new Error('at least one authorization-mode must be passed');
  return out as AuthorizationMode[];
}

function naming(v: string): ProfileName {
  if (v !== 'spec' && v !== 'upstream') throw new Error('must be "spec" or "upstream"');
  return v;
}

function backend(v: string): 'sqlite' | 'etcd3' {
  if (v !== 'sqlite' && v !== 'etcd3') throw new Error('must be "sqlite" or "etcd3"');
  return v;
}

function showHiddenVersion(v: string): string {
  const invalid = validateShowHiddenVersion(v, METRICS_VERSION);
  if (invalid !== undefined) throw new Error(invalid);
  return v;
}

const DESCRIPTION = 'Serves the API over HTTPS, on an embedded SQLite store or on etcd.';

const FLAGS: FlagSpec[] = [
  flag({
    name: 'secure-port',
    arg: '<port>',
    description: 'port to serve HTTPS on (0 picks a free one)',
    parse: port,
    default: 6443,
  }),
  flag({
    name: 'bind-address',
    arg: '<ip>',
    description: 'address to listen on',
    parse: text,
    default: '127.0.0.1',
  }),
  flag({
    name: 'data-dir',
    arg: '<dir>',
    description: 'directory of the embedded store and generated credentials',
    parse: text,
    default: './platform-data',
  }),
  flag({
    name: 'storage-backend',
    arg: '<name>',
    description: 'sqlite (embedded) or etcd3',
    parse: backend,
    default: 'sqlite',
  }),
  flag<string[] | undefined>({
    name: 'etcd-servers',
    arg: '<urls>',
    description: 'comma-separated etcd endpoints (with --storage-backend=etcd3)',
    parse: list,
    default: undefined,
  }),
  flag({
    name: 'etcd-prefix',
    arg: '<prefix>',
    description: 'key prefix in etcd',
    parse: text,
    default: '/registry',
  }),
  flag<string | undefined>({
    name: 'tls-cert-file',
    arg: '<file>',
    description: 'serving certificate (PEM); generated when absent',
    parse: text,
    default: undefined,
  }),
  flag<string | undefined>({
    name: 'tls-private-key-file',
    arg: '<file>',
    description: 'serving key (PEM)',
    parse: text,
    default: undefined,
  }),
  flag<string | undefined>({
    name: 'client-ca-file',
    arg: '<file>',
    description: 'CA bundle that client certificates must chain to',
    parse: text,
    default: undefined,
  }),
  flag<string | undefined>({
    name: 'token-auth-file',
    arg: '<file>',
    description: 'static token file (CSV: token,user,uid,"group1,group2")',
    parse: text,
    default: undefined,
  }),
  flag({
    name: 'anonymous-auth',
    boolean: true,
    description: 'treat requests without credentials as system:anonymous',
    parse: bool,
    default: true,
  }),
  flag({
    name: 'watch-cache',
    boolean: true,
    description: 'serve watches and lists from an in-memory cache',
    parse: bool,
    default: true,
  }),
  flag<AuthorizationMode[] | undefined>({
    name: 'authorization-mode',
    arg: '<modes>',
    description: `comma-separated, in order: ${AUTHORIZATION_MODES.join(', ')} (default Node,RBAC)`,
    parse: modes,
    default: undefined,
  }),
  flag<Record<string, boolean>>({
    name: 'feature-gates',
    arg: '<gates>',
    description: 'comma-separated key=bool pairs',
    parse: featureGatePairs,
    default: {},
  }),
  flag({
    name: 'etcd-compaction-interval',
    arg: '<duration>',
    description: 'history kept for watches and exact reads before compaction',
    parse: duration,
    default: 5 * 60_000,
  }),
  flag({
    name: 'event-ttl',
    arg: '<duration>',
    description: 'amount of time to retain events',
    parse: duration,
    default: 60 * 60_000,
  }),
  flag({
    name: 'min-request-timeout',
    arg: '<seconds>',
    description: 'a watch without timeoutSeconds ends between this and twice this many seconds',
    parse: seconds,
    default: 1800,
  }),
  flag({
    name: 'livez-grace-period',
    arg: '<duration>',
    description: 'time after start during which /livez ignores failures',
    parse: duration,
    default: 0,
  }),
  flag({
    name: 'shutdown-delay-duration',
    arg: '<duration>',
    description: 'time /readyz fails before the listener stops',
    parse: duration,
    default: 0,
  }),
  flag({
    name: 'request-timeout',
    arg: '<duration>',
    description: 'deadline of requests that are not long-running, reading their body included',
    parse: duration,
    default: 60_000,
  }),
  flag({
    name: 'http2-max-streams-per-connection',
    arg: '<n>',
    description: 'streams a client may have open on one HTTP/2 connection (0: the default, 100)',
    parse: seconds,
    default: 0,
  }),
  flag({
    name: 'max-connections',
    arg: '<n>',
    description: 'open connections past which new ones are answered 429 and closed',
    parse: positive,
    default: CONNECTION_DEFAULTS.maxConnections,
  }),
  flag<ProfileName>({
    name: 'naming',
    arg: '<profile>',
    description: 'spec (default) or upstream names for groups and labels',
    parse: naming,
    default: 'spec',
  }),
  flag({
    name: 'show-hidden-metrics-for-version',
    arg: '<x.y>',
    description:
      'the previous minor release, to expose again the metrics deprecated in it (only that release is accepted)',
    parse: showHiddenVersion,
    default: '',
  }),
  ...AUTHN_FLAGS,
  ...AUTHZ_FLAGS,
  ...LOGGING_FLAGS,
  ...AUDIT_FLAGS,
];

/** The program's --help text. */
export function apiserverUsage(name: string): string {
  return usage(name, DESCRIPTION, FLAGS);
}

/** The API server's flags, for a program that takes them beside its own (the control-plane program). */
export function apiserverFlagSpecs(): readonly FlagSpec[] {
  return FLAGS;
}

/** ServerOptions from argv (without node and the script); FlagError for anything wrong. */
export function parseApiserverFlags(argv: string[], name: string): ServerOptions {
  const { values, given } = parseFlagsGiven(argv, name, FLAGS);
  return serverOptionsFrom(values, given);
}

/** ServerOptions from parsed values of the API server's flags; FlagError for a bad combination. */
export function serverOptionsFrom(f: FlagValues, given: ReadonlySet<string>): ServerOptions {
  const storageBackend = f['storage-backend'] as 'sqlite' | 'etcd3';
  const etcdServers = f['etcd-servers'] as string[] | undefined;
  const tlsCertFile = f['tls-cert-file'] as string | undefined;
  const tlsPrivateKeyFile = f['tls-private-key-file'] as string | undefined;
  if (storageBackend === 'etcd3' && (etcdServers ?? []).length === 0) {
    throw new FlagError('--etcd-servers must be specified with --storage-backend=etcd3');
  }
  if ((tlsCertFile === undefined) !== (tlsPrivateKeyFile === undefined)) {
    throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  }
  return {
    dataDir: f['data-dir'] as string,
    bindAddress: f['bind-address'] as string,
    securePort: f['secure-port'] as number,
    storageBackend,
    etcdServers,
    etcdPrefix: f['etcd-prefix'] as string,
    tlsCertFile,
    tlsPrivateKeyFile,
    clientCaFile: f['client-ca-file'] as string | undefined,
    tokenAuthFile: f['token-auth-file'] as string | undefined,
    anonymousAuth: f['anonymous-auth'] as boolean,
    watchCache: f['watch-cache'] as boolean,
    compactionIntervalMs: f['etcd-compaction-interval'] as number,
    minRequestTimeoutSeconds: f['min-request-timeout'] as number,
    eventTtlMs: f['event-ttl'] as number,
    authorizationModes: f['authorization-mode'] as AuthorizationMode[] | undefined,
    featureGates: f['feature-gates'] as Record<string, boolean>,
    livezGracePeriodMs: f['livez-grace-period'] as number,
    shutdownDelayMs: f['shutdown-delay-duration'] as number,
    naming: f.naming as ProfileName,
    requestTimeoutMs: f['request-timeout'] as number,
    http2MaxStreamsPerConnection: f['http2-max-streams-per-connection'] as number,
    maxConnections: f['max-connections'] as number,
    showHiddenMetricsForVersion: f['show-hidden-metrics-for-version'] as string,
    authentication: authenticationOptionsFrom(f, given),
    authorization: authorizationOptionsFrom(f, given),
    audit: auditOptionsFrom(f, given),
  };
}
