// The Webhook authorizer: each request's attributes go in a SubjectAccessReview to a remote
// service, which allows, denies or has no opinion. As upstream's webhook authorizer:
// - the review carries the upstream group name (DESIGN.md: objects sent to webhooks) in the
//   version asked for (v1, or v1beta1 whose groups field is `group`); answers in the upstream or
//   the profile's group are read;
// - answers are remembered by the review's spec, allowed ones for the authorized TTL, the others
//   for the unauthorized TTL (each switchable off), in an LRU of 8192; requests whose own
//   attributes are huge are not remembered, so nobody can flood the cache;
// - `denied` denies, `allowed` allows, both is a deny with an error, neither is no opinion with the
//   webhook's reason;
// - a call that fails after upstream's retries (or an answer that is garbage, or match conditions
//   that fail with none false) decides as the failure policy says (NoOpinion or Deny) and carries
//   the error, which the filter turns into a 500 unless a later authorizer allows.

import type { Program } from '../../cel/index.ts';
import { groupName, type NamingProfile, namingProfile } from '../../naming/profile.ts';
import type { WebhookClientConfig } from '../authn/webhook-client-config.ts';
import {
  type AttemptResult,
  reviewAnswerStatus,
  WEBHOOK_TIMEOUT_MS,
  type WebhookBackoff,
  WebhookCallError,
  WebhookPoster,
} from '../webhook-call.ts';
import { evaluateMatchConditions } from './match-conditions.ts';
import type { AuthorizationMetrics, WebhookResult } from './metrics.ts';
import type {
  Attributes,
  Authorizer,
  RuleResolver,
  RulesResult,
  SelectorRequirement,
  Verdict,
} from './types.ts';

const UPSTREAM_GROUP = `authorization.${namingProfile('upstream').groupDomain}`;
/** Upstream's limit on one call when the configuration sets none (the flags' webhook). */
export const AUTHZ_WEBHOOK_TIMEOUT_MS = WEBHOOK_TIMEOUT_MS;
const CACHE_SIZE = 8192;
/** Upstream's bound on the requester-controlled attributes of a remembered answer. */
const MAX_CACHED_ATTRIBUTES_SIZE = 10_000;

export interface WebhookAuthorizerOptions {
  config: WebhookClientConfig;
  version: 'v1' | 'v1beta1';
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  cacheAuthorized?: boolean;
  cacheUnauthorized?: boolean;
  /** Limit of each call (default 30 s). */
  timeoutMs?: number;
  failurePolicy?: 'NoOpinion' | 'Deny';
  /** Compiled match conditions (AuthorizationConfiguration); none calls the webhook always. */
  matchConditions?: readonly Program[];
  /** The naming profile whose group name answers may also carry. */
  profile?: NamingProfile;
  backoff?: WebhookBackoff;
  /** The cache's clock, for tests. */
  now?: () => number;
  /** The authorizer's name (the configuration's; `default` for --authorization-mode): labels its metrics. */
  name?: string;
  /** Where round trips and fail-opens are counted. */
  metrics?: AuthorizationMetrics;
}

type Dict = Record<string, unknown>;

interface ReviewStatus {
  allowed: boolean;
  denied: boolean;
  reason: string;
}

function selector(reqs: readonly SelectorRequirement[] | undefined): Dict | undefined {
  if (reqs === undefined || reqs.length === 0) return undefined;
  return {
    requirements: reqs.map((r) => (r.values?.length ? { ...r } : { key: r.key, operator: r.operator })),
  };
}

/** The v1 spec as Go encodes it (empty fields left out), in its field order. */
export function subjectAccessReviewSpec(a: Attributes): Dict {
  const spec: Dict = {};
  if (a.isResourceRequest) {
    const ra: Dict = {};
    const put = (k: string, v: string) => {
      if (v !== '') ra[k] = v;
    };
    put('namespace', a.namespace);
    put('verb', a.verb);
    put('group', a.apiGroup);
    put('version', a.apiVersion);
    put('resource', a.resource);
    put('subresource', a.subresource);
    put('name', a.name);
    const fs = selector(a.fieldSelector);
    if (fs !== undefined) ra.fieldSelector = fs;
    const ls = selector(a.labelSelector);
    if (ls !== undefined) ra.labelSelector = ls;
    spec.resourceAttributes = ra;
  } else {
    const nra: Dict = {};
    if (a.path !== '') nra.path = a.path;
    if (a.verb !== '') nra.verb = a.verb;
    spec.nonResourceAttributes = nra;
  }
  const u = a.user;
  if (u.username !== '') spec.user = u.username;
  if (u.groups.length > 0) spec.groups = [...u.groups];
  if (u.extra !== undefined && Object.keys(u.extra).length > 0) spec.extra = u.extra;
  if (u.uid !== undefined && u.uid !== '') spec.uid = u.uid;
  return spec;
}

/** `request` as match conditions see it: every scalar present, so selecting one never fails. */
function celRequest(a: Attributes, spec: Dict): Dict {
  const out: Dict = {
    user: a.user.username,
    groups: a.user.groups,
    extra: a.user.extra ?? {},
    uid: a.user.uid ?? '',
  };
  if (a.isResourceRequest) {
    const ra: Dict = {
      namespace: a.namespace,
      verb: a.verb,
      group: a.apiGroup,
      version: a.apiVersion,
      resource: a.resource,
      subresource: a.subresource,
      name: a.name,
    };
    const given = spec.resourceAttributes as Dict;
    if (given.fieldSelector !== undefined) ra.fieldSelector = given.fieldSelector;
    if (given.labelSelector !== undefined) ra.labelSelector = given.labelSelector;
    out.resourceAttributes = ra;
  } else {
    out.nonResourceAttributes = { path: a.path, verb: a.verb };
  }
  return out;
}

function controlledSize(a: Attributes): number {
  return (
    a.namespace.length +
    a.verb.length +
    a.apiGroup.length +
    a.apiVersion.length +
    a.resource.length +
    a.subresource.length +
    a.name.length +
    a.path.length
  );
}

export class WebhookAuthorizer implements Authorizer, RuleResolver {
  private readonly poster: WebhookPoster;
  private readonly groups: readonly string[];
  private readonly cache = new Map<string, { status: ReviewStatus; expires: number }>();
  private readonly now: () => number;

  constructor(private readonly opts: WebhookAuthorizerOptions) {
    this.poster = new WebhookPoster(opts.config, opts.timeoutMs ?? AUTHZ_WEBHOOK_TIMEOUT_MS, opts.backoff);
    this.groups = [UPSTREAM_GROUP, groupName(opts.profile ?? namingProfile('spec'), 'authorization')];
    this.now = opts.now ?? Date.now;
  }

  close(): void {
    this.poster.close();
  }

  /** A webhook cannot say what it would allow: nothing listed, incomplete, as upstream's. */
  rulesFor(): RulesResult {
    return {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    };
  }

  /** `failed` is the last round trip's result when a call failed (counted as a fail-open under NoOpinion). */
  private onError(error: string, failed?: WebhookResult): Verdict {
    const deny = this.opts.failurePolicy === 'Deny';
    if (!deny && failed !== undefined) this.opts.metrics?.webhookFailOpen(this.opts.name ?? '', failed);
    return { decision: deny ? 'deny' : 'noOpinion', reason: '', error };
  }

  async authorize(a: Attributes): Promise<Verdict> {
    const spec = subjectAccessReviewSpec(a);
    const conditions = this.opts.matchConditions ?? [];
    if (conditions.length > 0) {
      const metrics = this.opts.metrics;
      const started = metrics === undefined ? 0 : performance.now();
      const m = evaluateMatchConditions(conditions, celRequest(a, spec));
      if (metrics !== undefined) {
        const name = this.opts.name ?? '';
        metrics.matchConditionEvaluation(name, (performance.now() - started) / 1000);
        if ('error' in m || m.erred === true) metrics.matchConditionError(name);
        if (!('error' in m) && !m.matches) metrics.matchConditionExclusion(name);
      }
      if ('error' in m) return this.onError(m.error);
      if (!m.matches) return { decision: 'noOpinion', reason: '' };
    }
    const key = JSON.stringify(spec);
    let status = this.cached(key);
    if (status === undefined) {
      // The last round trip's result, for the fail-open count of a call that failed.
      const last: { result: WebhookResult } = { result: 'error' };
      try {
        status = await this.review(spec, last);
      } catch (err) {
        return this.onError((err as Error).message, last.result);
      }
      if (controlledSize(a) < MAX_CACHED_ATTRIBUTES_SIZE) this.remember(key, status);
    }
    if (status.denied && status.allowed) {
      return {
        decision: 'deny',
        reason: status.reason,
        error: 'webhook subject access review returned both allow and deny response',
      };
    }
    if (status.denied) return { decision: 'deny', reason: status.reason };
    if (status.allowed) return { decision: 'allow', reason: status.reason };
    return { decision: 'noOpinion', reason: status.reason };
  }

  private cached(key: string): ReviewStatus | undefined {
    const hit = this.cache.get(key);
    if (hit === undefined) return undefined;
    if (hit.expires <= this.now()) {
      this.cache.delete(key);
      return undefined;
    }
    // Most recently used last: the first key is the one to evict.
    this.cache.delete(key);
    this.cache.set(key, hit);
    return hit.status;
  }

  private remember(key: string, status: ReviewStatus): void {
    const keep = status.allowed ? this.opts.cacheAuthorized !== false : this.opts.cacheUnauthorized !== false;
    const ttl = status.allowed ? this.opts.authorizedTtlMs : this.opts.unauthorizedTtlMs;
    if (!keep || ttl <= 0) return;
    this.cache.delete(key);
    this.cache.set(key, { status, expires: this.now() + ttl });
    if (this.cache.size > CACHE_SIZE) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }

  private async review(spec: Dict, last: { result: WebhookResult }): Promise<ReviewStatus> {
    const version = this.opts.version;
    let wireSpec = spec;
    if (version === 'v1beta1' && spec.groups !== undefined) {
      // v1beta1 names the groups `group`; the fields keep their order.
      wireSpec = {};
      for (const [k, v] of Object.entries(spec)) wireSpec[k === 'groups' ? 'group' : k] = v;
    }
    const body = JSON.stringify({
      kind: 'SubjectAccessReview',
      apiVersion: `${UPSTREAM_GROUP}/${version}`,
      metadata: { creationTimestamp: null },
      spec: wireSpec,
      status: { allowed: false },
    });
    const metrics = this.opts.metrics;
    const observe =
      metrics === undefined
        ? undefined
        : (result: AttemptResult, seconds: number) => {
            last.result = result;
            metrics.webhookRoundTrip(this.opts.name ?? '', result, seconds);
          };
    return this.readAnswer(await this.poster.post(body, observe));
  }

  private readAnswer(body: unknown): ReviewStatus {
    const s = reviewAnswerStatus(body, this.groups, 'SubjectAccessReview');
    for (const k of ['allowed', 'denied'])
      if (s[k] !== undefined && s[k] !== null && typeof s[k] !== 'boolean')
        throw new WebhookCallError(`the webhook answered a malformed status.${k}`);
    for (const k of ['reason', 'evaluationError'])
      if (s[k] !== undefined && s[k] !== null && typeof s[k] !== 'string')
        throw new WebhookCallError(`the webhook answered a malformed status.${k}`);
    return {
      allowed: s.allowed === true,
      denied: s.denied === true,
      reason: typeof s.reason === 'string' ? s.reason : '',
    };
  }
}
