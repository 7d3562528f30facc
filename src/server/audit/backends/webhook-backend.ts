// The webhook backend (upstream's plugin/pkg/audit/webhook): each batch is POSTed as one EventList
// in upstream's audit group (`audit.<upstream domain>/v1` whatever the profile: receivers decode upstream's
// group) to the server a client configuration file names, with its TLS material and credentials.
// - any failure is retried (upstream retries every error: a lost event is worse than a retry),
//   5 attempts in all, waiting initialBackoff (10 s by default), then x1.5 each time, plus up
//   to 20% jitter; each attempt has upstream's 30 s limit;
// - a 2xx answer is success, whatever its body; anything else fails the attempt;
// - events still failing after the last attempt are counted as `webhook` errors and logged;
// - shutdown abandons waits between attempts and requests in flight (the batch wrapper first
//   gives them a bounded time), counting their events as lost.
// The transport is not ../../../auth/webhook-call.ts's: that one reads a JSON review answer and
// retries only transient failures, while an audit receiver may answer anything and every failure
// is retried.

import { setMaxListeners } from 'node:events';
import { type Agent as HttpAgent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { WebhookClientConfig } from '../../../auth/authn/webhook-client-config.ts';
import { webhookAgent, webhookHeaders } from '../../../auth/webhook-call.ts';
import type { AuditBackend, AuditEvent } from '../event-types.ts';
import type { BatchDelegate } from './buffered.ts';
import type { PluginErrors } from './metrics.ts';

export interface WebhookBackendOptions {
  /** Upstream's audit group and v1, whatever the profile. */
  apiVersion: string;
  /** Wait before the second attempt (upstream: 10 s). */
  initialBackoffMs: number;
  /** Limit on one attempt (upstream: 30 s). */
  timeoutMs?: number;
  /** Attempts in all (upstream: 5). */
  attempts?: number;
  /** How long shutdown lets the blocking modes' sends finish before abandoning them. */
  shutdownTimeoutMs?: number;
}

const TIMEOUT_MS = 30_000;
const ATTEMPTS = 5;
const FACTOR = 1.5;
const JITTER = 0.2;
const PLUGIN = 'webhook';

class Aborted extends Error {}

export class WebhookBackend implements AuditBackend, BatchDelegate {
  readonly name = PLUGIN;
  private readonly agent: HttpAgent;
  private readonly abort = new AbortController();
  private readonly inflight = new Set<Promise<boolean>>();

  constructor(
    private readonly config: WebhookClientConfig,
    private readonly opts: WebhookBackendOptions,
    private readonly errors: PluginErrors,
  ) {
    // Every send and every wait between attempts listens for shutdown: hundreds with a receiver down.
    setMaxListeners(0, this.abort.signal);
    this.agent = webhookAgent(config);
  }

  /**
   * The blocking modes: the events are sent at once, one request per call, and the answer settles
   * once the receiver has (with retries): the request waits for it, and in blocking-strict mode a
   * failure at RequestReceived refuses the request. Failures are counted and logged.
   */
  processEvents(...events: AuditEvent[]): Promise<boolean> | false {
    if (this.abort.signal.aborted) {
      this.errors.report(PLUGIN, 'audit backend shut down', events);
      return false;
    }
    const p = this.deliver(events);
    this.inflight.add(p);
    return p.finally(() => this.inflight.delete(p));
  }

  /** Sends one EventList with retries; false (counted, logged) when it could not be delivered. */
  async deliver(events: AuditEvent[]): Promise<boolean> {
    if (events.length === 0) return true;
    const body = this.encode(events);
    const attempts = this.opts.attempts ?? ATTEMPTS;
    let delay = this.opts.initialBackoffMs;
    let lastError: Error = new Error('audit backend shut down');
    for (let attempt = 1; attempt <= attempts && !this.abort.signal.aborted; attempt++) {
      try {
        await this.post(body);
        return true;
      } catch (err) {
        lastError = err as Error;
      }
      if (attempt === attempts) break;
      await this.sleep(delay + Math.random() * JITTER * delay);
      delay *= FACTOR;
    }
    this.errors.report(PLUGIN, lastError, events);
    return false;
  }

  private encode(events: readonly AuditEvent[]): string {
    // Items carry no kind or apiVersion of their own, as upstream's encoding of a list's items.
    const items = events.map(({ kind: _k, apiVersion: _v, ...rest }) => rest);
    return JSON.stringify({ kind: 'EventList', apiVersion: this.opts.apiVersion, metadata: {}, items });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.abort.signal;
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private post(body: string): Promise<void> {
    const c = this.config;
    const headers = webhookHeaders(c, body);
    const send = c.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const target = c.url.toString();
    const timeoutMs = this.opts.timeoutMs ?? TIMEOUT_MS;
    return new Promise<void>((resolve, reject) => {
      const signal = this.abort.signal;
      const finish = (err?: Error) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (err === undefined) resolve();
        else reject(err);
      };
      const req = send(c.url, { method: 'POST', agent: this.agent, headers }, (res) => {
        // The answer's body means nothing to audit; it is read so the connection can be reused.
        res.resume();
        res.on('error', (err) => finish(err));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          if (code >= 200 && code < 300) finish();
          else
            finish(
              new Error(
                `the server responded with the status code ${code} but did not return more information`,
              ),
            );
        });
      });
      const timer = setTimeout(() => {
        const err = new Error(
          `Post "${target}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
        );
        finish(err);
        req.destroy(err);
      }, timeoutMs);
      const onAbort = () => {
        const err = new Aborted('audit backend shut down');
        finish(err);
        req.destroy(err);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) =>
        finish(err instanceof Aborted ? err : new Error(`Post "${target}": ${err.message}`)),
      );
      req.end(body);
    });
  }

  async shutdown(): Promise<void> {
    if (this.inflight.size > 0 && !this.abort.signal.aborted) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.inflight]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, this.opts.shutdownTimeoutMs ?? TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
    }
    this.abort.abort();
    await Promise.allSettled([...this.inflight]);
    this.agent.destroy();
  }
}
