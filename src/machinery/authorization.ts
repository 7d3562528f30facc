// The shapes of authorization that both apis/ (the RBAC kinds, the access reviews) and auth/authz/
// (the authorizers, the RBAC index, the rule resolvers) use. DESIGN.md forbids apis/ and auth/ to
// import each other, so they are declared once here, below both. Types only: no code.

// --- RBAC objects (rbac.authorization.<group domain>), as decoded from the API ---------------------

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

// --- what an authorizer is asked and answers --------------------------------------------------------

/** One selector requirement as reviews and webhooks carry it: operator In, NotIn, Exists or DoesNotExist. */
export interface SelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/** The attributes of one request, whoever the user type of the layer that builds them is. */
export interface AuthorizerAttributes<User> {
  user: User;
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

/** What a user may do in a namespace (SelfSubjectRulesReview's status). */
export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** Some authorizer could not list what it would allow (a webhook): the rules say less than it does. */
  incomplete: boolean;
  /** What went wrong while collecting the rules; the rules found are still reported. */
  evaluationError?: string;
}
