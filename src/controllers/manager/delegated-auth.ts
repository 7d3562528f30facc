// Who may read the controller manager's endpoints, decided by the API server as upstream's
// delegated authentication and authorization do: a bearer token is checked with a TokenReview, the
// request with a SubjectAccessReview for its path. Health paths are always allowed (upstream's
// --authorization-always-allow-paths default), so probes need no credentials. Answers are cached
// for ten seconds, as upstream's delegating authenticator and authorizer cache them.

import type { ApiClient } from '../../client/api.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { groupName, type NamingProfile } from '../../naming/index.ts';

export interface DelegatedUser {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const ANONYMOUS: DelegatedUser = {
  username: 'system:anonymous',
  groups: ['system:unauthenticated'],
};

/** Paths anyone may read (upstream's default --authorization-always-allow-paths). */
export const ALWAYS_ALLOWED_PATHS = ['/healthz', '/readyz', '/livez'];

const CACHE_MS = 10_000;
/** Bounds the caches: a flood of distinct tokens must not grow memory without limit. */
const CACHE_MAX = 1024;

class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  constructor(private readonly now: () => number) {}
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }
  set(key: string, value: V): void {
    if (this.entries.size >= CACHE_MAX) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, until: this.now() + CACHE_MS });
  }
}

export interface DelegatedAuthOptions {
  client: ApiClient;
  profile: NamingProfile;
  now?: () => number;
}

export interface Decision {
  allowed: boolean;
  reason: string;
}

export class DelegatedAuth {
  private readonly users: TtlCache<DelegatedUser | null>;
  private readonly decisions: TtlCache<Decision>;
  private readonly authentication: string;
  private readonly authorization: string;

  constructor(private readonly opts: DelegatedAuthOptions) {
    const now = opts.now ?? Date.now;
    this.users = new TtlCache(now);
    this.decisions = new TtlCache(now);
    this.authentication = groupName(opts.profile, 'authentication');
    this.authorization = groupName(opts.profile, 'authorization');
  }

  static alwaysAllowed(path: string): boolean {
    return ALWAYS_ALLOWED_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
  }

  /** The user a bearer token names; null when the server does not know the token. */
  async authenticate(token: string | undefined): Promise<DelegatedUser | null> {
    if (token === undefined || token === '') return ANONYMOUS;
    const cached = this.users.get(token);
    if (cached !== undefined) return cached;
    const review = await this.opts.client
      .resource({ group: this.authentication, version: 'v1', resource: 'tokenreviews' })
      .create({ apiVersion: `${this.authentication}/v1`, kind: 'TokenReview', spec: { token } });
    const status = (review.status ?? {}) as { authenticated?: boolean; user?: Partial<DelegatedUser> };
    const user: DelegatedUser | null =
      status.authenticated === true && typeof status.user?.username === 'string'
        ? {
            username: status.user.username,
            uid: status.user.uid,
            groups: status.user.groups ?? [],
            extra: status.user.extra,
          }
        : null;
    this.users.set(token, user);
    return user;
  }

  /** Whether `user` may `verb` the non-resource `path`. */
  async authorize(user: DelegatedUser, verb: string, path: string): Promise<Decision> {
    const key = JSON.stringify([user.username, user.uid, user.groups, user.extra, verb, path]);
    const cached = this.decisions.get(key);
    if (cached !== undefined) return cached;
    const body: ApiObject = {
      apiVersion: `${this.authorization}/v1`,
      kind: 'SubjectAccessReview',
      spec: {
        user: user.username,
        uid: user.uid,
        groups: user.groups,
        extra: user.extra,
        nonResourceAttributes: { path, verb },
      },
    };
    const review = await this.opts.client
      .resource({ group: this.authorization, version: 'v1', resource: 'subjectaccessreviews' })
      .create(body);
    const status = (review.status ?? {}) as { allowed?: boolean; reason?: string };
    const decision = { allowed: status.allowed === true, reason: status.reason ?? '' };
    this.decisions.set(key, decision);
    return decision;
  }
}
