// One JSON review posted to a webhook named by a client configuration file (the authorization
// webhook's transport): the configuration's TLS material and credentials, a time limit on each
// attempt (reading the answer included), and upstream's retries of transient failures
// (connection reset, 500, 504, 429, or a 5xx with Retry-After) with the token webhook's backoff.
// A failure is thrown with a message for the 500 the request gets; nothing here hangs past
// attempts x limit plus the backoff.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { WEBHOOK_BACKOFF, type WebhookBackoff } from '../authn/token-webhook.ts';
import type { WebhookClientConfig } from '../authn/webhook-client-config.ts';

export class WebhookCallError extends Error {
  constructor(
    message: string,
    readonly retry = false,
  ) {
    super(message);
  }
}

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ERR_HTTP2_STREAM_ERROR', 'ERR_HTTP2_SESSION_ERROR']);

export class WebhookPoster {
  private readonly agent: HttpAgent;

  constructor(
    private readonly config: WebhookClientConfig,
    private readonly timeoutMs: number,
    private readonly backoff: WebhookBackoff = WEBHOOK_BACKOFF,
  ) {
    this.agent =
      config.url.protocol === 'https:'
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

  close(): void {
    this.agent.destroy();
  }

  /** The parsed JSON answer of a 2xx; throws WebhookCallError (or a socket error) otherwise. */
  async post(body: string): Promise<unknown> {
    const b = this.backoff;
    let delay = b.initialMs;
    for (let step = 1; ; step++) {
      try {
        return await this.once(body);
      } catch (err) {
        const retry =
          err instanceof WebhookCallError
            ? err.retry
            : RESET_CODES.has((err as { code?: string }).code ?? '');
        if (!retry || step >= b.steps) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * b.jitter * delay));
      delay *= b.factor;
    }
  }

  private once(body: string): Promise<unknown> {
    const c = this.config;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, */*',
      'content-length': String(Buffer.byteLength(body)),
    };
    if (c.token !== undefined) headers.authorization = `Bearer ${c.token}`;
    else if (c.username !== undefined)
      headers.authorization = `Basic ${Buffer.from(`${c.username}:${c.password ?? ''}`).toString('base64')}`;
    const send = c.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const target = c.url.toString();
    return new Promise<unknown>((resolve, reject) => {
      const req = send(c.url, { method: 'POST', agent: this.agent, headers }, (res) => {
        readBody(res).then((text) => {
          clearTimeout(timer);
          try {
            resolve(answer(res, text));
          } catch (err) {
            reject(err);
          }
        }, fail);
      });
      const timer = setTimeout(() => {
        // Rejected first, so that the reset the destroy causes is not taken for a retryable one.
        const err = new WebhookCallError(
          `Post "${target}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
        );
        reject(err);
        req.destroy(err);
      }, this.timeoutMs);
      function fail(err: Error) {
        clearTimeout(timer);
        const e = new WebhookCallError(
          `Post "${target}": ${err.message}`,
          RESET_CODES.has((err as { code?: string }).code ?? ''),
        );
        reject(e);
      }
      req.on('error', fail);
      req.end(body);
    });
  }
}

function answer(res: IncomingMessage, text: string): unknown {
  const code = res.statusCode ?? 0;
  if (code < 200 || code > 206) {
    const retry =
      code === 500 ||
      code === 504 ||
      code === 429 ||
      (code >= 500 && res.headers['retry-after'] !== undefined);
    throw new WebhookCallError(
      `the server responded with the status code ${code} but did not return more information`,
      retry,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new WebhookCallError(
      "couldn't get version/kind; json parse error: the webhook's answer is not JSON",
    );
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
