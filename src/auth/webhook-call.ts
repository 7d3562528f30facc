// One JSON review posted to a webhook named by a client configuration file: the transport both the
// token webhook (authn/token-webhook.ts) and the authorization webhook (authz/webhook.ts) use.
// - the configuration's TLS material and credentials (a bearer token or basic credentials);
// - a time limit on each attempt, reading the answer included (upstream's 30 s by default);
// - upstream's retries of transient failures (connection reset, 500, 504, 429, or a 5xx with
//   Retry-After) with upstream's backoff (0.5 s, x1.5, 20% jitter, 5 attempts);
// - the envelope check of a review's answer (its group, version and kind) before the caller reads
//   its status.
// A failure is thrown as a WebhookCallError whose message each caller words as its upstream does;
// nothing here hangs past attempts x limit plus the backoff. Imports only the client configuration.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { WebhookClientConfig } from './authn/webhook-client-config.ts';

/** A keep-alive agent for the webhook's URL, with the configuration's CA, client credentials and server name. */
export function webhookAgent(config: WebhookClientConfig): HttpAgent {
  return config.url.protocol === 'https:'
    ? new HttpsAgent({
        keepAlive: true,
        ca: config.ca,
        cert: config.clientCert,
        key: config.clientKey,
        servername: config.serverName,
        rejectUnauthorized: !config.insecureSkipTlsVerify,
      })
    : new HttpAgent({ keepAlive: true });
}

/** The headers of a JSON POST to the webhook, with the configuration's bearer token or basic credentials. */
export function webhookHeaders(config: WebhookClientConfig, body: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, */*',
    'content-length': String(Buffer.byteLength(body)),
  };
  if (config.token !== undefined) headers.authorization = `Bearer ${config.token}`;
  else if (config.username !== undefined) {
    const basic = Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64');
    headers.authorization = `Basic ${basic}`;
  }
  return headers;
}

export interface WebhookBackoff {
  initialMs: number;
  factor: number;
  jitter: number;
  steps: number;
}

/** Upstream's DefaultRetryBackoff for webhooks. */
export const WEBHOOK_BACKOFF: WebhookBackoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };
/** Upstream's limit on one webhook request, reading the answer included. */
export const WEBHOOK_TIMEOUT_MS = 30_000;

export class WebhookCallError extends Error {
  constructor(
    message: string,
    readonly retry = false,
    /** The attempt ran out of time (or the webhook answered 504): metrics call it a timeout. */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/** What one attempt came to, for callers that count round trips (upstream's result label). */
export type AttemptResult = 'success' | 'timeout' | 'error';

/** Told of each attempt (a retried call makes several), with its duration in seconds. */
export type AttemptObserver = (result: AttemptResult, seconds: number) => void;

function attemptResult(err: unknown): AttemptResult {
  return err instanceof WebhookCallError && err.timedOut ? 'timeout' : 'error';
}

/** How failures are worded; the defaults are client-go's, as the authorization webhook reports them. */
export interface WebhookCallMessages {
  /** An attempt that did not finish within the limit. */
  timeout: (target: string, timeoutMs: number) => string;
  /** A connection that failed or broke (retried when it was reset). */
  transport: (target: string, err: Error) => string;
  /** An answer outside 2xx. */
  status: (code: number) => string;
  /** A 2xx answer that is not JSON. */
  notJson: string;
}

const CLIENT_GO_MESSAGES: WebhookCallMessages = {
  timeout: (target) =>
    `Post "${target}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
  transport: (target, err) => `Post "${target}": ${err.message}`,
  status: (code) => `the server responded with the status code ${code} but did not return more information`,
  notJson: "couldn't get version/kind; json parse error: the webhook's answer is not JSON",
};

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ERR_HTTP2_STREAM_ERROR', 'ERR_HTTP2_SESSION_ERROR']);
const isReset = (err: unknown) => RESET_CODES.has((err as { code?: string }).code ?? '');

export class WebhookPoster {
  private readonly agent: HttpAgent;
  private readonly messages: WebhookCallMessages;

  constructor(
    private readonly config: WebhookClientConfig,
    private readonly timeoutMs: number = WEBHOOK_TIMEOUT_MS,
    private readonly backoff: WebhookBackoff = WEBHOOK_BACKOFF,
    messages: Partial<WebhookCallMessages> = {},
  ) {
    this.messages = { ...CLIENT_GO_MESSAGES, ...messages };
    this.agent = webhookAgent(config);
  }

  close(): void {
    this.agent.destroy();
  }

  /** The parsed JSON answer of a 2xx; throws WebhookCallError otherwise. */
  async post(body: string, onAttempt?: AttemptObserver): Promise<unknown> {
    const b = this.backoff;
    let delay = b.initialMs;
    for (let step = 1; ; step++) {
      const started = onAttempt === undefined ? 0 : performance.now();
      try {
        const answer = await this.once(body);
        onAttempt?.('success', (performance.now() - started) / 1000);
        return answer;
      } catch (err) {
        onAttempt?.(attemptResult(err), (performance.now() - started) / 1000);
        const retry = err instanceof WebhookCallError ? err.retry : isReset(err);
        if (!retry || step >= b.steps) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * b.jitter * delay));
      delay *= b.factor;
    }
  }

  private once(body: string): Promise<unknown> {
    const c = this.config;
    const m = this.messages;
    const headers = webhookHeaders(c, body);
    const send = c.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const target = c.url.toString();
    return new Promise<unknown>((resolve, reject) => {
      const req = send(c.url, { method: 'POST', agent: this.agent, headers }, (res) => {
        readBody(res).then((text) => {
          clearTimeout(timer);
          try {
            resolve(answer(res, text, m));
          } catch (err) {
            reject(err);
          }
        }, fail);
      });
      const timer = setTimeout(() => {
        // Rejected first, so that the reset the destroy causes is not taken for a retryable one.
        const err = new WebhookCallError(m.timeout(target, this.timeoutMs), false, true);
        reject(err);
        req.destroy(err);
      }, this.timeoutMs);
      function fail(err: Error) {
        clearTimeout(timer);
        reject(new WebhookCallError(m.transport(target, err), isReset(err)));
      }
      req.on('error', fail);
      req.end(body);
    });
  }
}

function answer(res: IncomingMessage, text: string, m: WebhookCallMessages): unknown {
  const code = res.statusCode ?? 0;
  if (code < 200 || code > 206) {
    const retry =
      code === 500 ||
      code === 504 ||
      code === 429 ||
      (code >= 500 && res.headers['retry-after'] !== undefined);
    throw new WebhookCallError(m.status(code), retry, code === 504);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new WebhookCallError(m.notJson);
  }
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (d: Buffer) => chunks.push(d));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.on('aborted', () => reject(new WebhookCallError('the webhook closed the connection mid-answer')));
  });
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The status of a review the webhook answered: the answer must be an object whose apiVersion (when
 * present) is v1 or v1beta1 of one of `groups`, whose kind (when present) is `kind`, and whose
 * status (an empty one when absent) is an object.
 */
export function reviewAnswerStatus(body: unknown, groups: readonly string[], kind: string): Dict {
  if (!isDict(body)) throw new WebhookCallError('the webhook answered something other than a JSON object');
  const apiVersion = body.apiVersion;
  if (apiVersion !== undefined) {
    const [group, version] = String(apiVersion).split('/');
    if (!groups.includes(group) || (version !== 'v1' && version !== 'v1beta1'))
      throw new WebhookCallError(
        `the webhook answered in an unexpected apiVersion ${JSON.stringify(apiVersion)}`,
      );
  }
  if (body.kind !== undefined && body.kind !== kind)
    throw new WebhookCallError(`the webhook answered a ${JSON.stringify(body.kind)}, not a ${kind}`);
  const status = body.status ?? {};
  if (!isDict(status)) throw new WebhookCallError('the webhook answered a status that is not an object');
  return status;
}
