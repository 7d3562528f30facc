// Remembers token authentications for a short while (upstream: successes 10 s, failures not at
// all), so that a client's every request does not verify its token again: a signature check or a
// webhook round trip per request would dominate a get. Keys are digests of token and audiences,
// never the token itself, and the cache is bounded; concurrent lookups of one token share one
// verification. With metrics, lookups are counted as upstream's cache counts them: a hit is a
// finished verification still fresh; joining one still running is a miss that waits (blocked).

import { createHash } from 'node:crypto';
import { TokenCacheMetrics } from './token-cache-metrics.ts';
import type { TokenAuthenticator, TokenResult } from './types.ts';

export interface TokenCacheOptions {
  successTtlMs: number;
  failureTtlMs: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
  /** The clock, for tests. */
  now?: () => number;
  /** Where lookups and verifications are counted. */
  metrics?: TokenCacheMetrics;
}

interface Entry {
  result: Promise<TokenResult>;
  /** When it stops counting; Infinity while the verification is still running. */
  expires: number;
}

const DEFAULT_MAX_ENTRIES = 4096;

export class CachedTokenAuthenticator implements TokenAuthenticator {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(
    private readonly inner: TokenAuthenticator,
    private readonly opts: TokenCacheOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  authenticateToken(token: string, audiences: readonly string[]): Promise<TokenResult> {
    const m = this.opts.metrics;
    const started = m === undefined ? 0 : performance.now();
    const key = cacheKey(token, audiences);
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.expires > this.now()) {
      if (m !== undefined) {
        if (hit.expires === Number.POSITIVE_INFINITY) return this.#waited(m, hit.result, started);
        m.hits.inc();
        m.hitLatency.observe(TokenCacheMetrics.seconds(started));
      }
      return hit.result;
    }
    if (hit !== undefined) this.entries.delete(key);
    const result = Promise.resolve().then(() => this.inner.authenticateToken(token, audiences));
    const entry: Entry = { result, expires: Number.POSITIVE_INFINITY };
    this.remember(key, entry);
    if (m !== undefined) {
      m.inFlight.inc();
      result.then(
        (r) => {
          m.inFlight.dec();
          (r !== null && 'error' in r ? m.fetchedError : m.fetchedOk).inc();
        },
        () => {
          m.inFlight.dec();
          m.fetchedError.inc();
        },
      );
      this.#waited(m, result, started);
    }
    result.then(
      (r) => {
        const ttl = r !== null && 'user' in r ? this.opts.successTtlMs : this.opts.failureTtlMs;
        if (ttl <= 0) this.forget(key, entry);
        else entry.expires = this.now() + ttl;
      },
      () => this.forget(key, entry),
    );
    return result;
  }

  /** A miss: the lookup waits (blocked) for the verification, then its latency is observed. */
  #waited(m: TokenCacheMetrics, result: Promise<TokenResult>, started: number): Promise<TokenResult> {
    m.blocked.inc();
    const done = () => {
      m.blocked.dec();
      m.misses.inc();
      m.missLatency.observe(TokenCacheMetrics.seconds(started));
    };
    result.then(done, done);
    return result;
  }

  private remember(key: string, entry: Entry): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }
}

function cacheKey(token: string, audiences: readonly string[]): string {
  const h = createHash('sha256');
  h.update(token);
  for (const a of audiences) h.update(`\0${a}`);
  return h.digest('base64');
}
