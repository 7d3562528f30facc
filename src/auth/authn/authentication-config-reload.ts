// Reloading the AuthenticationConfiguration file while the server runs, as upstream does: on a
// change of the file (fs.watch on its folder, which also sees editors' rename-into-place) and on a
// periodic re-check (every minute). A version that does not decode or validate is refused, the old
// authenticators stay, and that text is not tried again; a valid one whose issuers cannot be
// reached yet is refused too but tried again at the next check. The outcome of each attempt is
// counted in `metrics` (a plain record tests read) and, given a registry's ConfigReloadMetrics,
// under upstream's metric names for /metrics.

import { createHash } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { ConfigReloadMetrics, ReloadSubject } from './config-reload-metrics.ts';

export type { ReloadSubject } from './config-reload-metrics.ts';

/** What one reload attempt decides. */
export type ReloadAttempt =
  /** Same text as in force: nothing to do. */
  | { kind: 'unchanged' }
  /** Refused for good (decode or validation error): do not try this text again. */
  | { kind: 'invalid'; error: string }
  /** Refused for now (an issuer unreachable): try again. */
  | { kind: 'retry'; error: string }
  | { kind: 'applied' };

export interface ReloadMetrics {
  /** apiserver_authentication_config_controller_automatic_reloads_total{status}. */
  reloadsTotal: { success: number; failure: number };
  /** apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds{status}. */
  lastReloadTimestampSeconds: { success?: number; failure?: number };
  /** apiserver_authentication_config_controller_last_config_info{hash}: sha256 of the text in force. */
  lastConfigHash: string;
}

export function configHash(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

export interface ReloaderOptions {
  file: string;
  /** The text in force at start. */
  initialText: string;
  /** Tries to put a new text in force. */
  apply(text: string): Promise<ReloadAttempt>;
  /** Periodic re-check (upstream: one minute). */
  intervalMs?: number;
  log?: (message: string) => void;
  /** Named in log lines (default authentication). */
  subject?: ReloadSubject;
  /** The server's reload metrics for this file. */
  recorder?: ConfigReloadMetrics;
}

export const RELOAD_INTERVAL_MS = 60_000;

export class ConfigFileReloader {
  readonly metrics: ReloadMetrics;
  #tracked: string;
  #timer: NodeJS.Timeout | undefined;
  #watcher: FSWatcher | undefined;
  #running: Promise<void> = Promise.resolve();
  #pending = false;
  #closed = false;

  constructor(private readonly opts: ReloaderOptions) {
    this.#tracked = opts.initialText;
    this.metrics = {
      reloadsTotal: { success: 0, failure: 0 },
      lastReloadTimestampSeconds: {},
      lastConfigHash: configHash(opts.initialText),
    };
    opts.recorder?.configInForce(opts.initialText);
  }

  start(): this {
    const every = this.opts.intervalMs ?? RELOAD_INTERVAL_MS;
    this.#timer = setInterval(() => this.check(), every);
    this.#timer.unref();
    try {
      // The folder, not the file: editors and config maps replace the file by renaming into place.
      const name = basename(this.opts.file);
      this.#watcher = watch(dirname(this.opts.file), { persistent: false }, (_event, changed) => {
        if (changed === null || changed === name) this.check();
      });
      this.#watcher.on('error', () => {
        // The periodic check still runs.
        this.#watcher?.close();
        this.#watcher = undefined;
      });
    } catch {
      // A folder that cannot be watched is covered by the periodic check.
    }
    return this;
  }

  /** Checks the file once more (after the check in progress, if any); resolves when done. */
  check(): Promise<void> {
    if (this.#closed) return this.#running;
    if (this.#pending) return this.#running;
    this.#pending = true;
    this.#running = this.#running.then(async () => {
      this.#pending = false;
      if (!this.#closed) await this.#checkOnce();
    });
    return this.#running;
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#watcher?.close();
  }

  async #checkOnce(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.opts.file, 'utf8');
    } catch (err) {
      // The file may come back (a rename in progress): count it, keep trying.
      this.#record('failure');
      this.opts.log?.(`failed to read ${this.#subject} config file: ${(err as Error).message}`);
      return;
    }
    if (text === this.#tracked) return;
    let attempt: ReloadAttempt;
    try {
      attempt = await this.opts.apply(text);
    } catch (err) {
      attempt = { kind: 'retry', error: (err as Error).message };
    }
    switch (attempt.kind) {
      case 'unchanged':
        return;
      case 'invalid':
        this.#tracked = text;
        this.#record('failure');
        this.opts.log?.(`failed to load ${this.#subject} config: ${attempt.error}`);
        return;
      case 'retry':
        this.#record('failure');
        this.opts.log?.(`failed to update ${this.#subject} config: ${attempt.error}`);
        return;
      case 'applied':
        this.#tracked = text;
        this.metrics.lastConfigHash = configHash(text);
        this.#record('success');
        this.opts.recorder?.configInForce(text);
        this.opts.log?.(`reloaded ${this.#subject} config`);
    }
  }

  get #subject(): ReloadSubject {
    return this.opts.subject ?? 'authentication';
  }

  #record(status: 'success' | 'failure'): void {
    const now = Date.now() / 1000;
    this.metrics.reloadsTotal[status]++;
    this.metrics.lastReloadTimestampSeconds[status] = now;
    this.opts.recorder?.reload(status, now);
  }
}
