// Credentials from an exec plugin: runs the plugin when there are none, keeps what it answered
// until it expires, the server refuses it (401) or the process ends, and lets every concurrent
// request wait on one run, since an interactive plugin must not ask the user twice at once.

import {
  clientAuthenticationGroup,
  execInfoEnvName,
  type NamingProfile,
  namingProfile,
  UPSTREAM_CLIENT_AUTHENTICATION_GROUP,
  UPSTREAM_EXEC_INFO_ENV,
} from '../../naming/index.ts';
import type { CredentialSource, Credentials } from '../api.ts';
import type { ExecConfig } from './exec-config.ts';
import {
  decodeExecCredentialOutput,
  type ExecClusterInfo,
  encodeExecCredentialInput,
} from './exec-credential.ts';
import { PluginRunError, runPlugin } from './exec-run.ts';

export interface ExecCredentialSourceOptions {
  /** The cluster, sent to the plugin only when the config sets provideClusterInfo. */
  cluster?: ExecClusterInfo;
  /** Whether standard input is a terminal; default: this process's stdin is a TTY. */
  stdinIsTerminal?: boolean;
  /** Standard input is in use by the program itself and must not go to the plugin. */
  stdinUnavailable?: boolean;
  /** Why, for the error an `Always` plugin then gets. */
  stdinUnavailableMessage?: string;
  /** Decides the ExecCredential group and the variable's name; default the spec profile. */
  profile?: NamingProfile;
  /** The clock expiry is judged by (ms since the epoch). */
  now?: () => number;
  /**
   * How long one run may take (ms, 0 = no limit). Default: 60 s for a run without standard input;
   * none for an interactive run, where a person may be typing.
   */
  timeoutMs?: number;
  /** The environment the plugin's is built over; default process.env. */
  environ?: () => NodeJS.ProcessEnv;
  /** Where the plugin's standard error goes; default this process's. */
  stderr?: 'inherit' | NodeJS.WritableStream;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** The install hint is repeated at most this often per window, as client-go does, so logs stay readable. */
const HINT_THRESHOLD = 10;
const HINT_WINDOW_MS = 60 * 60 * 1000;

const NOT_INSTALLED_HELP =
  '\n\nIt looks like you are trying to use a client credential plugin that is not installed.' +
  "\n\nThe plugin's command is named in the client configuration file's exec section; install it or correct the command.";

interface Cached {
  credentials: Credentials;
  expiresAt?: number;
}

const sameCredentials = (a: Credentials, b: Credentials) =>
  a.token === b.token &&
  a.clientCertificatePem === b.clientCertificatePem &&
  a.clientKeyPem === b.clientKeyPem;

export class ExecCredentialSource implements CredentialSource {
  private readonly config: ExecConfig;
  private readonly opts: ExecCredentialSourceOptions;
  private readonly profile: NamingProfile;
  private readonly now: () => number;
  private cached: Cached | undefined;
  /** The last answer, kept past a 401 so an unchanged answer keeps its identity. */
  private last: Credentials | undefined;
  private inflight: Promise<Cached> | undefined;
  private hintWindowStart: number | undefined;
  private hintCount = 0;

  constructor(config: ExecConfig, opts: ExecCredentialSourceOptions = {}) {
    this.config = config;
    this.opts = opts;
    this.profile = opts.profile ?? namingProfile('spec');
    this.now = opts.now ?? Date.now;
  }

  /** The cached credentials, or the plugin's answer; rejects with an error naming the plugin. */
  current(): Promise<Credentials> {
    const c = this.cached;
    if (c !== undefined && (c.expiresAt === undefined || this.now() <= c.expiresAt))
      return Promise.resolve(c.credentials);
    if (this.inflight === undefined) {
      const run = this.refresh();
      this.inflight = run;
      const clear = () => {
        if (this.inflight === run) this.inflight = undefined;
      };
      run.then(clear, clear);
    }
    return this.inflight.then((r) => r.credentials);
  }

  unauthorized(used: Credentials): void {
    if (this.cached !== undefined && sameCredentials(this.cached.credentials, used)) this.cached = undefined;
  }

  /** When the cached credentials expire (ms since the epoch); undefined when none are cached or they do not. */
  get expiresAt(): number | undefined {
    return this.cached?.expiresAt;
  }

  private async refresh(): Promise<Cached> {
    const interactive = this.interactive();
    const input = encodeExecCredentialInput(
      this.config.apiVersion,
      interactive,
      this.config.provideClusterInfo ? this.opts.cluster : undefined,
    );
    let stdout: string;
    try {
      stdout = await runPlugin({
        command: this.config.command,
        args: this.config.args,
        env: this.environment(input),
        interactive,
        stderr: this.opts.stderr ?? 'inherit',
        timeoutMs: this.opts.timeoutMs ?? (interactive ? 0 : DEFAULT_TIMEOUT_MS),
        maxOutputBytes: MAX_OUTPUT_BYTES,
      });
    } catch (e) {
      throw this.runError(e);
    }
    let result: Cached;
    try {
      result = await decodeExecCredentialOutput(stdout, this.config.apiVersion, this.profile);
    } catch (e) {
      throw this.named((e as Error).message);
    }
    // The same answer keeps its identity, so a transport comparing credentials keeps its connections.
    const old = this.last;
    if (old !== undefined && sameCredentials(old, result.credentials)) result.credentials = old;
    this.cached = result;
    this.last = result.credentials;
    return result;
  }

  /** client-go's rules for standard input, with its messages. */
  private interactive(): boolean {
    const isTerminal = this.opts.stdinIsTerminal ?? process.stdin.isTTY === true;
    const unavailable = this.opts.stdinUnavailable === true;
    switch (this.config.interactiveMode) {
      case 'Never':
        return false;
      case 'IfAvailable':
        return !unavailable && isTerminal;
      case 'Always': {
        const why = !isTerminal
          ? 'standard input is not a terminal'
          : unavailable
            ? `standard input is unavailable${this.opts.stdinUnavailableMessage ? `: ${this.opts.stdinUnavailableMessage}` : ''}`
            : undefined;
        if (why !== undefined) throw this.named(`exec plugin cannot support interactive mode: ${why}`);
        return true;
      }
      default:
        throw this.named(
          `exec plugin cannot support interactive mode: unknown interactiveMode: ${JSON.stringify(this.config.interactiveMode)}`,
        );
    }
  }

  /**
   * The process environment, the config's variables over it, and the ExecCredential over both.
   * The ExecCredential always goes in the profile's variable (the spec's protocol). A config in
   * upstream's group names a stock plugin, which reads only upstream's variable (client-go's helper
   * for plugins fails without it), so it gets that one too; a config in the profile's group does
   * not, since a stock plugin could not decode that group anyway. Variables of that name inherited
   * from this process (it may itself run as a plugin) are dropped rather than passed on stale.
   */
  private environment(input: string): NodeJS.ProcessEnv {
    const own = execInfoEnvName(this.profile);
    const env: NodeJS.ProcessEnv = { ...(this.opts.environ ?? (() => process.env))() };
    delete env[own];
    delete env[UPSTREAM_EXEC_INFO_ENV];
    for (const e of this.config.env) env[e.name] = e.value;
    env[own] = input;
    const group = this.config.apiVersion.slice(0, this.config.apiVersion.lastIndexOf('/'));
    if (group === UPSTREAM_CLIENT_AUTHENTICATION_GROUP && group !== clientAuthenticationGroup(this.profile))
      env[UPSTREAM_EXEC_INFO_ENV] = input;
    return env;
  }

  private named(message: string): Error {
    return new Error(`exec: executable ${this.config.command}: ${message}`);
  }

  private runError(e: unknown): Error {
    const cmd = this.config.command;
    if (!(e instanceof PluginRunError)) return this.named((e as Error)?.message ?? String(e));
    const f = e.failure;
    switch (f.kind) {
      case 'not-found': {
        let msg = `exec: executable ${cmd} not found`;
        if (this.hintDue()) {
          msg += NOT_INSTALLED_HELP;
          if (this.config.installHint !== '') msg += `\n\n${this.config.installHint}`;
        }
        return new Error(msg);
      }
      case 'exit':
        return new Error(`exec: executable ${cmd} failed with exit code ${f.exitCode}`);
      case 'signal':
        return new Error(`exec: executable ${cmd} was terminated by signal ${f.signal}`);
      case 'timeout':
        return new Error(
          `exec: executable ${cmd} did not finish within ${f.timeoutMs / 1000}s and was stopped`,
        );
      case 'too-much-output':
        return new Error(
          `exec: executable ${cmd} wrote more than ${f.maxOutputBytes} bytes to standard output`,
        );
      case 'start':
        return new Error(`exec: executable ${cmd} could not be started: ${f.message}`);
    }
  }

  /** At most HINT_THRESHOLD hints per HINT_WINDOW_MS, counted from the first in the window. */
  private hintDue(): boolean {
    const now = this.now();
    if (this.hintWindowStart === undefined || now - this.hintWindowStart >= HINT_WINDOW_MS) {
      this.hintWindowStart = now;
      this.hintCount = 0;
    }
    if (this.hintCount >= HINT_THRESHOLD) return false;
    this.hintCount++;
    return true;
  }
}
