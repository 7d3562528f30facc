// The RBAC objects as the authorizer reads them, the feed that keeps its index current, and the
// rule resolver other parts ask (SelfSubjectRulesReview, escalation checks). The objects arrive
// as plain decoded API objects; only the fields evaluation reads are typed here.

import type { PolicyRule, RoleRef, Subject } from '../../../machinery/authorization.ts';
import type { UserInfo } from '../../authn/types.ts';
import type { NonResourceRuleInfo, ResourceRuleInfo } from '../types.ts';

export type { NonResourceRuleInfo, PolicyRule, ResourceRuleInfo, RoleRef, Subject };

export interface RbacMeta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
}

/** Role or ClusterRole. */
export interface RoleObject {
  metadata?: RbacMeta;
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: unknown[] | null } | null;
}

/** RoleBinding or ClusterRoleBinding. */
export interface BindingObject {
  metadata?: RbacMeta;
  subjects?: Subject[] | null;
  roleRef?: RoleRef;
}

export const RBAC_KINDS = ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'] as const;
export type RbacKind = (typeof RBAC_KINDS)[number];

export type RbacObject = RoleObject | BindingObject;

/** What a feed delivers; `replace` hands over the whole current set of a kind (after a relist). */
export interface RbacFeedHandlers {
  upsert(kind: RbacKind, obj: RbacObject): void;
  remove(kind: RbacKind, obj: RbacObject): void;
  replace(kind: RbacKind, objects: readonly RbacObject[]): void;
}

export interface RbacFeed {
  /** Resolves once every kind was listed once and handed over. */
  synced: Promise<void>;
  stop(): void;
}

/**
 * Where the four kinds come from: the server's stores (src/server/authz-feed.ts) or, in tests, a
 * memory source. A source lists, then follows changes, relisting after a failed watch.
 */
export interface RbacObjectSource {
  start(handlers: RbacFeedHandlers): RbacFeed;
}

export interface RulesForResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** RBAC always knows its whole answer: false (other resolvers may say true). */
  incomplete: boolean;
  /** The resolution errors (missing roles), joined as upstream's error aggregate; '' for none. */
  evaluationError: string;
}

export interface PolicyRulesResult {
  rules: PolicyRule[];
  /** One message per binding whose role could not be resolved. */
  errors: string[];
}

export interface RuleResolver {
  /** What the user may do in the namespace ('' for cluster-wide rules only), as the review reports it. */
  rulesFor(user: UserInfo, namespace: string): RulesForResult;
  /** The same as policy rules, for escalation checks. */
  policyRulesFor(user: UserInfo, namespace: string): PolicyRulesResult;
  /**
   * The rules a role reference grants from a binding in `bindingNamespace` ('' for a
   * ClusterRoleBinding); throws a NotFound ApiError for a missing role, as upstream's lister.
   */
  roleRefRules(roleRef: RoleRef, bindingNamespace: string): PolicyRule[];
}
