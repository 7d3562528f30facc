// What an authorizer is asked and what it answers. The attribute set is the full one RBAC, Node and
// Webhook authorizers need, so adding them later changes nothing upstream of this file.

import type { UserInfo } from '../authn/types.ts';

export interface Attributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** Request path, for non-resource requests. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /**
   * The list's or watch's field and label selectors as requirements, as SubjectAccessReview
   * carries them (upstream's AuthorizeWithSelectors); absent when the request has none.
   */
  fieldSelector?: SelectorRequirement[];
  labelSelector?: SelectorRequirement[];
}

/** One selector requirement: operator In, NotIn, Exists or DoesNotExist. */
export interface SelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/**
 * - `allow` / `deny`: decided; a deny stops the chain.
 * - `noOpinion`: the next authorizer decides; when none does, the request is denied.
 */
export type Decision = 'allow' | 'deny' | 'noOpinion';

export interface Verdict {
  decision: Decision;
  reason: string;
  /**
   * Why the authorizer could not decide as asked (a webhook down, a match condition failing):
   * a request that is not allowed then gets a 500 carrying it, as upstream answers.
   */
  error?: string;
}

export interface Authorizer {
  authorize(a: Attributes): Verdict | Promise<Verdict>;
}

/** A rule of what a user may do to resources, as SelfSubjectRulesReview reports it. */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** Some authorizer could not list what it would allow (a webhook): the rules say less than it does. */
  incomplete: boolean;
  /** What went wrong while collecting the rules; the rules found are still reported. */
  evaluationError?: string;
}

/**
 * An authorizer that can list what a user may do in a namespace (`kubectl auth can-i --list`).
 * Authorizers that cannot leave it out; the chain reports the union of those that can.
 */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesResult | Promise<RulesResult>;
}
