// Webhook token authentication (--authentication-token-webhook-*): tokens no local authenticator
// knows are sent in a TokenReview to a remote service named by a client configuration file, which
// answers who the token belongs to. As upstream's webhook authenticator:
// - the review carries the upstream group name (authentication.k8s.io, DESIGN.md) in the version
//   the flag asks for; answers in the upstream or the profile's group are read;
// - transient failures (connection reset, 500, 504, 429, or a 5xx with Retry-After) are
//   retried with upstream's backoff (0.5 s, x1.5, 20% jitter, 5 attempts); each attempt has
//   upstream's 30 s limit (the transport shared with the authorization webhook, ../webhook-call.ts);
// - answers are remembered for the cache TTL (2 minutes by default), refusals as well as
//   acceptances; errors (the webhook down, garbage, a refusal that says why) are not remembered,
//   so an outage ends as soon as the webhook is back;
// - audiences: the review asks for the caller's; the answer's audiences (or the API's when it names
//   none) must share one with them, else the token is refused.
// A webhook that fails in any way refuses the token (401); it never crashes the request.

import { groupName, type NamingProfile, namingProfile } from '../../naming/profile.ts';
import {
  reviewAnswerStatus,
  type WebhookBackoff,
  WebhookCallError,
  type WebhookCallMessages,
  WebhookPoster,
} from '../webhook-call.ts';
import { AUTHN_DEFAULTS, type TokenWebhookOptions } from './options.ts';
import { CachedTokenAuthenticator } from './token-cache.ts';
import type { TokenCacheMetrics } from './token-cache-metrics.ts';
import type { TokenAuthenticator, TokenResult, UserInfo } from './types.ts';
import { loadWebhookClientConfig, type WebhookClientConfig } from './webhook-client-config.ts';

/** The group reviews are sent in: upstream's, whatever the profile. */
const UPSTREAM_GROUP = `authentication.${namingProfile('upstream').groupDomain}`;

export interface WebhookAuthenticatorOptions {
  config: WebhookClientConfig;
  version: 'v1' | 'v1beta1';
  /** The API's audiences: what a token is good for when the answer names no audiences. */
  apiAudiences: readonly string[];
  /** How long answers are remembered; 0 remembers nothing. */
  cacheTtlMs: number;
  /** Groups whose TokenReview answers are read besides upstream's (the profile's). */
  acceptedGroups?: readonly string[];
  requestTimeoutMs?: number;
  backoff?: WebhookBackoff;
  /** The cache's clock, for tests. */
  now?: () => number;
  /** The token cache metrics: upstream's webhook cache records into the same ones as the outer cache. */
  cacheMetrics?: TokenCacheMetrics;
}

/** How this authenticator words a failed call (the errors end in its refusal's message). */
const MESSAGES: Partial<WebhookCallMessages> = {
  timeout: (_target, ms) => `the webhook did not answer within ${ms} ms`,
  transport: (_target, err) => err.message,
  status: (code) => `the webhook answered with the status code ${code}`,
  notJson: 'the webhook answered something that is not JSON',
};

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** The answer's status, or why it is not a TokenReview. */
function readStatus(body: unknown, groups: readonly string[]): Dict {
  const status = reviewAnswerStatus(body, groups, 'TokenReview');
  const bad = (field: string) => new WebhookCallError(`the webhook answered a malformed status.${field}`);
  if (status.authenticated !== undefined && typeof status.authenticated !== 'boolean')
    throw bad('authenticated');
  if (status.error !== undefined && typeof status.error !== 'string') throw bad('error');
  if (status.audiences !== undefined && status.audiences !== null && !isStrings(status.audiences))
    throw bad('audiences');
  const user = status.user ?? {};
  if (!isDict(user)) throw bad('user');
  for (const k of ['username', 'uid'])
    if (user[k] !== undefined && typeof user[k] !== 'string') throw bad(`user.${k}`);
  if (user.groups !== undefined && user.groups !== null && !isStrings(user.groups)) throw bad('user.groups');
  if (user.extra !== undefined && user.extra !== null) {
    if (!isDict(user.extra)) throw bad('user.extra');
    for (const [k, v] of Object.entries(user.extra))
      if (v !== null && !isStrings(v)) throw bad(`user.extra[${k}]`);
  }
  return status;
}

/** The TokenReview client: one review, retried as upstream; throws when there is no answer to use. */
export class TokenReviewWebhook {
  private readonly poster: WebhookPoster;
  private readonly groups: readonly string[];

  constructor(private readonly opts: WebhookAuthenticatorOptions) {
    this.poster = new WebhookPoster(opts.config, opts.requestTimeoutMs, opts.backoff, MESSAGES);
    this.groups = [UPSTREAM_GROUP, ...(opts.acceptedGroups ?? [])];
  }

  close(): void {
    this.poster.close();
  }

  async authenticateToken(token: string, audiences: readonly string[]): Promise<TokenResult> {
    const status = await this.review(token, audiences);
    let granted: string[] | undefined;
    if (audiences.length > 0) {
      const answered = isStrings(status.audiences) && status.audiences.length > 0;
      const got = answered ? (status.audiences as string[]) : this.opts.apiAudiences;
      granted = audiences.filter((a) => got.includes(a));
      if (granted.length === 0) return null;
    }
    if (status.authenticated !== true) {
      if (typeof status.error === 'string' && status.error !== '') throw new WebhookCallError(status.error);
      return null;
    }
    const u = (status.user ?? {}) as Dict;
    const user: UserInfo = {
      username: typeof u.username === 'string' ? u.username : '',
      groups: isStrings(u.groups) ? [...u.groups] : [],
    };
    if (typeof u.uid === 'string' && u.uid !== '') user.uid = u.uid;
    if (isDict(u.extra)) {
      user.extra = {};
      for (const [k, v] of Object.entries(u.extra)) user.extra[k] = isStrings(v) ? [...v] : [];
    }
    return granted === undefined ? { user } : { user, audiences: granted };
  }

  private async review(token: string, audiences: readonly string[]): Promise<Dict> {
    const spec: Dict = { token };
    if (audiences.length > 0) spec.audiences = [...audiences];
    const body = JSON.stringify({
      kind: 'TokenReview',
      apiVersion: `${UPSTREAM_GROUP}/${this.opts.version}`,
      metadata: { creationTimestamp: null },
      spec,
      status: { user: {} },
    });
    return readStatus(await this.poster.post(body), this.groups);
  }
}

/**
 * The webhook behind its own cache. Errors are thrown by the client so that the cache forgets
 * them, and turned into refusals here.
 */
export class WebhookTokenAuthenticator implements TokenAuthenticator {
  private readonly client: TokenReviewWebhook;
  private readonly cached: CachedTokenAuthenticator;

  constructor(opts: WebhookAuthenticatorOptions) {
    this.client = new TokenReviewWebhook(opts);
    this.cached = new CachedTokenAuthenticator(this.client, {
      successTtlMs: opts.cacheTtlMs,
      failureTtlMs: opts.cacheTtlMs,
      now: opts.now,
      ...(opts.cacheMetrics === undefined ? {} : { metrics: opts.cacheMetrics }),
    });
  }

  /** From the flags; throws (the server does not start) when the configuration file is bad. */
  static fromOptions(
    o: TokenWebhookOptions,
    apiAudiences: readonly string[],
    profile: NamingProfile,
    cacheMetrics?: TokenCacheMetrics,
  ): WebhookTokenAuthenticator {
    return new WebhookTokenAuthenticator({
      config: loadWebhookClientConfig(o.configFile),
      version: o.version ?? AUTHN_DEFAULTS.tokenWebhookVersion,
      apiAudiences,
      cacheTtlMs: o.cacheTtlMs ?? AUTHN_DEFAULTS.tokenWebhookCacheTtlMs,
      acceptedGroups: [groupName(profile, 'authentication')],
      ...(cacheMetrics === undefined ? {} : { cacheMetrics }),
    });
  }

  async authenticateToken(token: string, audiences: readonly string[]): Promise<TokenResult> {
    try {
      return await this.cached.authenticateToken(token, audiences);
    } catch (err) {
      return { error: `webhook token authentication failed: ${(err as Error).message}` };
    }
  }

  close(): void {
    this.client.close();
  }
}
