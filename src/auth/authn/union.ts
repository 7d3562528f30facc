// The authentication chain. The first authenticator that recognises the request decides. A bad
// credential (a certificate that does not verify, a bearer token nobody knows) is a 401, never a
// fall back to anonymous: only a request that carries no credential at all is anonymous.

import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { bearerToken } from './bearer.ts';
import { usernameFolder } from './metrics.ts';
import {
  type Authenticator,
  type AuthnRequest,
  type AuthnResult,
  GROUP_AUTHENTICATED,
  GROUP_UNAUTHENTICATED,
  USER_ANONYMOUS,
  type UserInfo,
} from './types.ts';

/**
 * A refusal says whether an authenticator failed on a credential (`errored`: a bad token or
 * certificate, upstream's error) or nobody recognised the request (no credential and no anonymous
 * access); the authentication metrics count the two apart.
 */
export type AuthnOutcome = { ok: true; user: UserInfo } | { ok: false; reason: string; errored: boolean };

export interface AuthnChainOptions {
  authenticators: Authenticator[];
  anonymous: boolean;
  /**
   * When set, anonymous access only on exactly these paths (an AuthenticationConfiguration's
   * anonymous conditions); elsewhere a request without credentials is 401.
   */
  anonymousPaths?: readonly string[];
  /** Where the request filter records attempts, latency and users (nothing without a registry). */
  metrics?: MetricsRegistry;
  /** User names as the users metric labels them (upstream's folding under the naming profile). */
  foldUsername?: (username: string) => string;
}

export class AuthnChain {
  constructor(private readonly opts: AuthnChainOptions) {}

  /** The registry the request filter records authentication metrics in, if any. */
  get metrics(): MetricsRegistry | undefined {
    return this.opts.metrics;
  }

  get foldUsername(): (username: string) => string {
    return this.opts.foldUsername ?? usernameFolder();
  }

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
    if (errors.length > 0) return { ok: false, reason: errors.join(', '), errored: true };
    if (!this.opts.anonymous) return { ok: false, reason: 'no credentials', errored: false };
    const paths = this.opts.anonymousPaths;
    if (paths !== undefined && !paths.includes(req.path ?? '')) {
      return { ok: false, reason: 'anonymous access is not allowed on this path', errored: false };
    }
    return { ok: true, user: { username: USER_ANONYMOUS, groups: [GROUP_UNAUTHENTICATED] } };
  }
}
