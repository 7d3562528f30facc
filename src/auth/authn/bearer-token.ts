// Requests with `Authorization: Bearer <token>`: the token goes to the token authenticators with
// the API's audiences. A Bearer header whose token nobody recognises is a bad credential (401),
// not an anonymous request.

import { bearerToken } from './bearer.ts';
import type { Authenticator, AuthnRequest, AuthnResult, TokenAuthenticator } from './types.ts';

export class BearerTokenAuthenticator implements Authenticator {
  constructor(
    private readonly tokens: TokenAuthenticator,
    private readonly apiAudiences: readonly string[],
  ) {}

  async authenticate(req: AuthnRequest): Promise<AuthnResult> {
    const token = bearerToken(req);
    if (token === undefined) return null;
    if (token === '') return { error: 'invalid bearer token' };
    const result = await this.tokens.authenticateToken(token, this.apiAudiences);
    if (result === null) return { error: 'invalid bearer token' };
    if ('error' in result) return { error: `invalid bearer token, ${result.error}` };
    return { user: result.user };
  }
}
