// The authentication chain. The first authenticator that recognises the request decides. A bad
// credential (a certificate that does not verify, a bearer token nobody knows) is a 401, never a
// fall back to anonymous: only a request that carries no credential at all is anonymous.

import { bearerToken } from './bearer.ts';
import {
  type Authenticator,
  type AuthnRequest,
  type AuthnResult,
  GROUP_AUTHENTICATED,
  GROUP_UNAUTHENTICATED,
  USER_ANONYMOUS,
  type UserInfo,
} from './types.ts';

export type AuthnOutcome = { ok: true; user: UserInfo } | { ok: false; reason: string };

export interface AuthnChainOptions {
  authenticators: Authenticator[];
  anonymous: boolean;
  /**
   * When set, anonymous access only on exactly these paths (an AuthenticationConfiguration's
   * anonymous conditions); elsewhere a request without credentials is 401.
   */
  anonymousPaths?: readonly string[];
}

export class AuthnChain {
  constructor(private readonly opts: AuthnChainOptions) {}

  async authenticate(req: AuthnRequest): Promise<AuthnOutcome> {
    const errors: string[] = [];
    for (const a of this.opts.authenticators) {
      let r: AuthnResult;
      try {
        r = await a.authenticate(req);
      } catch (err) {
        // An authenticator that fails refuses the request; it never lets it through as anonymous.
        r = { error: (err as Error).message };
      }
      if (r === null) continue;
      if ('error' in r) {
        errors.push(r.error);
        continue;
      }
      const groups = r.user.groups.includes(GROUP_AUTHENTICATED)
        ? r.user.groups
        : [...r.user.groups, GROUP_AUTHENTICATED];
      return { ok: true, user: { ...r.user, groups } };
    }
    if (bearerToken(req) !== undefined && errors.length === 0) errors.push('invalid bearer token');
    if (errors.length > 0) return { ok: false, reason: errors.join(', ') };
    if (!this.opts.anonymous) return { ok: false, reason: 'no credentials' };
    const paths = this.opts.anonymousPaths;
    if (paths !== undefined && !paths.includes(req.path ?? '')) {
      return { ok: false, reason: 'anonymous access is not allowed on this path' };
    }
    return { ok: true, user: { username: USER_ANONYMOUS, groups: [GROUP_UNAUTHENTICATED] } };
  }
}
