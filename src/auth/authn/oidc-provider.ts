// The remote side of one JWT issuer: its discovery document and its key set. Fetched when the
// authenticator starts and, while the issuer cannot be reached, again in the background (every
// 10 s, as upstream polls); tokens are refused meanwhile, the server runs on. Once ready, an
// unknown `kid` fetches the key set again (one fetch at a time, at most one per interval), which
// is how a rotated key becomes known. Each key set fetch is reported (its outcome and, when it
// decoded, its text) for the JWKS fetch metrics.

import { request } from 'node:https';
import { importJwks, type VerificationKey } from './jwt-verify.ts';

export interface ProviderOptions {
  /** `issuer.url`: what the discovery document's `issuer` must equal. */
  issuerUrl: string;
  /** Where the discovery document is; default `<issuer>/.well-known/openid-configuration`. */
  discoveryUrl?: string;
  /** PEM CAs that verify the issuer's certificate; the host's roots when unset. */
  caPem?: string;
  /** Between attempts while the issuer is unreachable (upstream: 10 s). */
  retryIntervalMs?: number;
  /** Least time between two key set fetches caused by unknown keys. */
  minRefreshIntervalMs?: number;
  /** Bound of one HTTP exchange (upstream's client: 30 s). */
  timeoutMs?: number;
  /** Where failures are reported. */
  log?: (message: string) => void;
  /** Told of each key set fetch while the provider runs: `body` is the key set's text on success. */
  onKeySetFetch?: (result: 'success' | 'failure', body?: string) => void;
}

const MAX_DOCUMENT_BYTES = 1 << 20;

export const PROVIDER_DEFAULTS = {
  retryIntervalMs: 10_000,
  minRefreshIntervalMs: 5_000,
  timeoutMs: 30_000,
};

export class OidcProvider {
  #keys: VerificationKey[] | undefined;
  #jwksUri: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #refreshing: Promise<void> | undefined;
  #lastRefresh = 0;
  #lastError = '';
  readonly #ready: Promise<void>;
  #markReady!: () => void;

  constructor(private readonly opts: ProviderOptions) {
    this.#ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
  }

  /** Starts fetching; returns at once (the first attempt runs in the background). */
  start(): this {
    void this.#attempt();
    return this;
  }

  /** Settles once discovery and keys have been fetched (for tests and for callers that may wait). */
  get ready(): Promise<void> {
    return this.#ready;
  }

  /** The current keys; undefined until the first fetch succeeded. */
  get keys(): readonly VerificationKey[] | undefined {
    return this.#keys;
  }

  /** Why the last fetch failed ('' when it did not). */
  get lastError(): string {
    return this.#lastError;
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  /** Fetches the key set again unless a fetch is running or one ran within the interval. */
  async refreshKeys(): Promise<void> {
    if (this.#jwksUri === undefined || this.#closed) return;
    if (this.#refreshing !== undefined) return this.#refreshing;
    const min = this.opts.minRefreshIntervalMs ?? PROVIDER_DEFAULTS.minRefreshIntervalMs;
    if (Date.now() - this.#lastRefresh < min) return;
    this.#lastRefresh = Date.now();
    const uri = this.#jwksUri;
    this.#refreshing = this.#fetchKeySet(uri)
      .then((keys) => {
        this.#keys = keys;
        this.#lastError = '';
      })
      .catch((err: Error) => {
        // The old keys stay: a failed refresh must not lock out tokens signed with known keys.
        this.#lastError = `fetching keys ${err.message}`;
        this.opts.log?.(`oidc authenticator: ${this.opts.issuerUrl}: ${this.#lastError}`);
      })
      .finally(() => {
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  async #attempt(): Promise<void> {
    if (this.#closed) return;
    try {
      const discoveryUrl =
        this.opts.discoveryUrl ??
        `${this.opts.issuerUrl.replace(/\/+$/, '')}/.well-known/openid-configuration`;
      const doc = (await this.#fetchJson(discoveryUrl)) as { issuer?: unknown; jwks_uri?: unknown };
      if (doc.issuer !== this.opts.issuerUrl) {
        throw new Error(
          `oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(this.opts.issuerUrl)} got ${JSON.stringify(doc.issuer ?? '')}`,
        );
      }
      if (typeof doc.jwks_uri !== 'string') throw new Error('oidc: discovery document has no jwks_uri');
      const keys = await this.#fetchKeySet(doc.jwks_uri);
      if (this.#closed) return;
      this.#jwksUri = doc.jwks_uri;
      this.#keys = keys;
      this.#lastRefresh = Date.now();
      this.#lastError = '';
      this.#markReady();
    } catch (err) {
      if (this.#closed) return;
      this.#lastError = (err as Error).message;
      this.opts.log?.(`oidc authenticator: initializing plugin: ${this.#lastError}`);
      const wait = this.opts.retryIntervalMs ?? PROVIDER_DEFAULTS.retryIntervalMs;
      this.#timer = setTimeout(() => void this.#attempt(), wait);
      this.#timer.unref();
    }
  }

  /** The key set at `uri`, its fetch reported as a success only when it decoded into keys. */
  async #fetchKeySet(uri: string): Promise<VerificationKey[]> {
    const report = this.opts.onKeySetFetch;
    let keys: VerificationKey[];
    let body: string;
    try {
      body = await this.#fetchBody(uri);
      keys = importJwks(parseJson(uri, body));
    } catch (err) {
      if (!this.#closed) report?.('failure');
      throw err;
    }
    if (!this.#closed) report?.('success', body);
    return keys;
  }

  async #fetchJson(url: string): Promise<unknown> {
    return parseJson(url, await this.#fetchBody(url));
  }

  #fetchBody(url: string): Promise<string> {
    return new Promise((resolve, reject) => {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        reject(new Error(`invalid URL ${JSON.stringify(url)}`));
        return;
      }
      if (u.protocol !== 'https:') {
        reject(new Error(`${url}: only https is supported`));
        return;
      }
      const req = request(
        u,
        {
          method: 'GET',
          headers: { accept: 'application/json' },
          ...(this.opts.caPem !== undefined ? { ca: this.opts.caPem } : {}),
          timeout: this.opts.timeoutMs ?? PROVIDER_DEFAULTS.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_DOCUMENT_BYTES) {
              req.destroy(new Error(`${url}: response larger than ${MAX_DOCUMENT_BYTES} bytes`));
              return;
            }
            chunks.push(c);
          });
          res.on('error', reject);
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) {
              reject(new Error(`${res.statusCode} ${res.statusMessage ?? ''}: ${body.slice(0, 200)}`));
              return;
            }
            resolve(body);
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${url}: timeout`)));
      req.on('error', reject);
      req.end();
    });
  }
}

function parseJson(url: string, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (err) {
    throw new Error(`${url}: failed to decode response: ${(err as Error).message}`);
  }
}
