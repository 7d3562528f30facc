// The JWT authenticators in force, as one token authenticator whose members a reload replaces in
// one step: a token is checked against the set that was current when it arrived, and a set
// replaced by a reload is closed (its background fetches stop). Each member's verdict on a token it
// claims is timed into the JWT latency metric when the set has one.

import type { JwtAuthenticator } from './jwt-authenticator.ts';
import type { JwtMetrics } from './jwt-metrics.ts';
import type { TokenAuthenticator, TokenResult } from './types.ts';

export class JwtAuthenticatorSet implements TokenAuthenticator {
  #members: readonly JwtAuthenticator[];

  constructor(
    members: readonly JwtAuthenticator[],
    private readonly metrics?: JwtMetrics,
  ) {
    this.#members = members;
  }

  get members(): readonly JwtAuthenticator[] {
    return this.#members;
  }

  /** Puts `next` in force and closes the members it replaces. */
  replace(next: readonly JwtAuthenticator[]): void {
    const old = this.#members;
    this.#members = next;
    for (const a of old) a.close();
  }

  async authenticateToken(token: string): Promise<TokenResult> {
    // Issuers are unique, so at most one member claims a token; the first that does decides.
    const metrics = this.metrics;
    for (const a of this.#members) {
      const started = metrics === undefined ? 0 : performance.now();
      const r = await a.authenticateToken(token);
      if (r === null) continue;
      if (metrics !== undefined) {
        const series = metrics.forIssuer(a.issuer);
        ('error' in r ? series.failure : series.success).observe((performance.now() - started) / 1000);
      }
      return r;
    }
    return null;
  }

  close(): void {
    this.replace([]);
  }
}
