// Token authenticators in order (static file, service accounts, bootstrap, JWT issuers, webhook):
// the first that accepts the token decides. A token one of them calls bad is refused only when no
// other accepts it, as upstream's token union does: a JWT from an issuer the service-account
// authenticator does not know is not its business, and the OIDC authenticator may still take it.

import type { TokenAuthenticator, TokenResult } from './types.ts';

export class TokenUnion implements TokenAuthenticator {
  constructor(private readonly members: readonly TokenAuthenticator[]) {}

  get size(): number {
    return this.members.length;
  }

  async authenticateToken(token: string, audiences: readonly string[]): Promise<TokenResult> {
    const errors: string[] = [];
    for (const member of this.members) {
      let result: TokenResult;
      try {
        result = await member.authenticateToken(token, audiences);
      } catch (err) {
        // An authenticator that fails (a peer down, a bug) refuses the token; it never lets it in.
        result = { error: (err as Error).message };
      }
      if (result === null) continue;
      if ('error' in result) {
        errors.push(result.error);
        continue;
      }
      return result;
    }
    return errors.length > 0 ? { error: errors.join(', ') } : null;
  }
}
