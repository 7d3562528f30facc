// The JWT authenticators in force, as one token authenticator whose members a reload replaces in
// one step: a token is checked against the set that was current when it arrived, and a set
// replaced by a reload is closed (its background fetches stop).

import type { JwtAuthenticator } from './jwt-authenticator.ts';
import type { TokenAuthenticator, TokenResult } from './types.ts';

export class JwtAuthenticatorSet implements TokenAuthenticator {
  #members: readonly JwtAuthenticator[];

  constructor(members: readonly JwtAuthenticator[]) {
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
    for (const a of this.#members) {
      const r = await a.authenticateToken(token);
      if (r !== null) return r;
    }
    return null;
  }

  close(): void {
    this.replace([]);
  }
}
