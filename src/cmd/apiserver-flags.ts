// The API server's flags, with kube-apiserver's names where they exist, parsed into ServerOptions.
// Anything unknown or malformed is a FlagError; the program prints it and exits 2.

import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { AUTHORIZATION_MODES, type AuthorizationMode, isAuthorizationMode } from '../auth/authz/modes.ts';
import { parseDuration } from '../machinery/duration.ts';
import type { ProfileName } from '../naming/profile.ts';
import type { ServerOptions } from '../server/options.ts';

export class FlagError extends Error {
  override name = 'FlagError';
}

function port(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535)
    throw new InvalidArgumentError('must be a port number (0-65535)');
  return Number(v);
}

function bool(v: string | undefined): boolean {
  if (v === undefined) return true;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw new InvalidArgumentError(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

function seconds(v: string): number {
  if (!/^\d+$/.test(v))
    throw new InvalidArgumentError(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

function duration(v: string): number {
  try {
    const ms = parseDuration(v);
    if (ms < 0) throw new Error(`must not be negative`);
    return ms;
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function list(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function modes(v: string): AuthorizationMode[] {
  const out = list(v);
  for (const m of out) {
    if (!isAuthorizationMode(m)) {
      throw new InvalidArgumentError(
        `authorization-mode ${JSON.stringify(m)} is not a valid mode (supported: ${AUTHORIZATION_MODES.join(', ')})`,
      );
    }
  }
  if (out.length === 0) throw new InvalidArgumentError('at least one authorization-mode must be passed');
  return out as AuthorizationMode[];
}

function featureGates(v: string): Record<string, boolean> {
  const gates: Record<string, boolean> = {};
  for (const pair of list(v)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InvalidArgumentError(`missing bool value for ${pair}`);
    gates[pair.slice(0, eq)] = bool(pair.slice(eq + 1));
  }
  return gates;
}

function naming(v: string): ProfileName {
  if (v !== 'spec' && v !== 'upstream') throw new InvalidArgumentError('must be "spec" or "upstream"');
  return v;
}

function backend(v: string): 'sqlite' | 'etcd3' {
  if (v !== 'sqlite' && v !== 'etcd3') throw new InvalidArgumentError('must be "sqlite" or "etcd3"');
  return v;
}

export function apiserverCommand(name: string): Command {
  return new Command(name)
    .description('Serves the API over HTTPS, on an embedded SQLite store or on etcd.')
    .option('--secure-port <port>', 'port to serve HTTPS on (0 picks a free one)', port, 6443)
    .option('--bind-address <ip>', 'address to listen on', '127.0.0.1')
    .option(
      '--data-dir <dir>',
      'directory of the embedded store and generated credentials',
      './platform-data',
    )
    .option('--storage-backend <name>', 'sqlite (embedded) or etcd3', backend, 'sqlite' as const)
    .option('--etcd-servers <urls>', 'comma-separated etcd endpoints (with --storage-backend=etcd3)', list)
    .option('--etcd-prefix <prefix>', 'key prefix in etcd', '/registry')
    .option('--tls-cert-file <file>', 'serving certificate (PEM); generated when absent')
    .option('--tls-private-key-file <file>', 'serving key (PEM)')
    .option('--client-ca-file <file>', 'CA bundle that client certificates must chain to')
    .option('--token-auth-file <file>', 'static token file (CSV: token,user,uid,"group1,group2")')
    .option('--anonymous-auth [bool]', 'treat requests without credentials as system:anonymous', bool, true)
    .option('--watch-cache [bool]', 'serve watches and lists from an in-memory cache', bool, true)
    .option('--authorization-mode <modes>', `comma-separated: ${AUTHORIZATION_MODES.join(', ')}`, modes, [
      'AlwaysAllow',
    ] as AuthorizationMode[])
    .option('--feature-gates <gates>', 'comma-separated key=bool pairs', featureGates, {})
    .option(
      '--etcd-compaction-interval <duration>',
      'history kept for watches and exact reads before compaction',
      duration,
      5 * 60_000,
    )
    .option(
      '--min-request-timeout <seconds>',
      'a watch without timeoutSeconds ends between this and twice this many seconds',
      seconds,
      1800,
    )
    .option(
      '--livez-grace-period <duration>',
      'time after start during which /livez ignores failures',
      duration,
      0,
    )
    .option(
      '--shutdown-delay-duration <duration>',
      'time /readyz fails before the listener stops',
      duration,
      0,
    )
    .option(
      '--naming <profile>',
      'spec (default) or upstream names for groups and labels',
      naming,
      'spec' as const,
    )
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: (s) => process.stdout.write(s) });
}

interface ParsedFlags {
  securePort: number;
  bindAddress: string;
  dataDir: string;
  storageBackend: 'sqlite' | 'etcd3';
  etcdServers?: string[];
  etcdPrefix: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCaFile?: string;
  tokenAuthFile?: string;
  anonymousAuth: boolean;
  watchCache: boolean;
  etcdCompactionInterval: number;
  minRequestTimeout: number;
  authorizationMode: AuthorizationMode[];
  featureGates: Record<string, boolean>;
  livezGracePeriod: number;
  shutdownDelayDuration: number;
  naming: ProfileName;
}

/** ServerOptions from argv (without node and the script); FlagError for anything wrong. */
export function parseApiserverFlags(argv: string[], name: string): ServerOptions {
  const cmd = apiserverCommand(name);
  try {
    cmd.parse(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') throw err;
      throw new FlagError(err.message.replace(/^error: /, ''));
    }
    throw err;
  }
  const f = cmd.opts<ParsedFlags>();
  if (f.storageBackend === 'etcd3' && (f.etcdServers ?? []).length === 0) {
    throw new FlagError('--etcd-servers must be specified with --storage-backend=etcd3');
  }
  if ((f.tlsCertFile === undefined) !== (f.tlsPrivateKeyFile === undefined)) {
    throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  }
  return {
    dataDir: f.dataDir,
    bindAddress: f.bindAddress,
    securePort: f.securePort,
    storageBackend: f.storageBackend,
    etcdServers: f.etcdServers,
    etcdPrefix: f.etcdPrefix,
    tlsCertFile: f.tlsCertFile,
    tlsPrivateKeyFile: f.tlsPrivateKeyFile,
    clientCaFile: f.clientCaFile,
    tokenAuthFile: f.tokenAuthFile,
    anonymousAuth: f.anonymousAuth,
    watchCache: f.watchCache,
    compactionIntervalMs: f.etcdCompactionInterval,
    minRequestTimeoutSeconds: f.minRequestTimeout,
    authorizationModes: f.authorizationMode,
    featureGates: f.featureGates,
    livezGracePeriodMs: f.livezGracePeriod,
    shutdownDelayMs: f.shutdownDelayDuration,
    naming: f.naming,
  };
}
