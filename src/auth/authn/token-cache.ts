// Remembers token authentications for a short while (upstream: successes 10 s, failures not at
// all), so that a client's every request does not verify its token again: a signature check or a
// webhook round trip per request would dominate a get. Keys are digests of token and audiences,
// never the token itself, and the cache is bounded; concurrent lookups of one token share one
// verification.

import { createHash } from 'node:crypto';
import type { TokenAuthenticator, TokenResult } from './types.ts';

export interface TokenCacheOptions {
  successTtlMs: number;
  failureTtlMs: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
  /** The clock, for tests. */
  now?: () => number;
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
    const key = cacheKey(token, audiences);
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.expires > this.now()) return hit.result;
    if (hit !== undefined) this.entries.delete(key);
    const result = Promise.resolve().then(() => this.inner.authenticateToken(token, audiences));
    const entry: Entry = { result, expires: Number.POSITIVE_INFINITY };
    this.remember(key, entry);
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
