// Evaluates a loaded audit Policy against one request's attributes: the first rule whose every
// given matcher accepts the request decides the level; with no match the level is None. Stages
// a rule omits are joined with the ones the policy omits everywhere, and the rule's
// omitManagedFields, when set, overrides the policy's. Semantics follow upstream's checker.

import type { AuditLevel, AuditStage, Policy, PolicyRule } from './policy-types.ts';

/** What the checker needs to know about a request (the authorizer's attributes). */
export interface AuditAttributes {
  /** Undefined for a request with no user (then rules naming users or groups do not match). */
  user?: { name: string; groups: readonly string[] };
  verb: string;
  isResourceRequest: boolean;
  /** Request path, for non-resource requests. */
  path?: string;
  namespace?: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

export interface RequestAuditConfig {
  level: AuditLevel;
  omitStages: AuditStage[];
  omitManagedFields: boolean;
}

export const DEFAULT_AUDIT_LEVEL: AuditLevel = 'None';

export class PolicyRuleEvaluator {
  private readonly rules: { rule: PolicyRule; omitStages: AuditStage[] }[];

  constructor(private readonly policy: Policy) {
    // Joined once here so each request only reads them.
    this.rules = policy.rules.map((rule) => ({
      rule,
      omitStages: unionStages(policy.omitStages, rule.omitStages),
    }));
  }

  evaluate(attrs: AuditAttributes): RequestAuditConfig {
    for (const { rule, omitStages } of this.rules) {
      if (ruleMatches(rule, attrs)) {
        return {
          level: rule.level as AuditLevel,
          // Shared by every request the rule matches: readers must not change it.
          omitStages,
          omitManagedFields: rule.omitManagedFields ?? this.policy.omitManagedFields,
        };
      }
    }
    return {
      level: DEFAULT_AUDIT_LEVEL,
      omitStages: unionStages(this.policy.omitStages),
      omitManagedFields: this.policy.omitManagedFields,
    };
  }
}

function unionStages(...lists: readonly string[][]): AuditStage[] {
  return [...new Set(lists.flat())] as AuditStage[];
}

export function ruleMatches(r: PolicyRule, attrs: AuditAttributes): boolean {
  if (r.users.length > 0 && (attrs.user === undefined || !r.users.includes(attrs.user.name))) return false;
  if (r.userGroups.length > 0) {
    if (attrs.user === undefined || !attrs.user.groups.some((g) => r.userGroups.includes(g))) return false;
  }
  if (r.verbs.length > 0 && !r.verbs.includes(attrs.verb)) return false;
  if (r.namespaces.length > 0 || r.resources.length > 0) return matchesResource(r, attrs);
  if (r.nonResourceURLs.length > 0) return matchesNonResource(r, attrs);
  return true;
}

function matchesNonResource(r: PolicyRule, attrs: AuditAttributes): boolean {
  if (attrs.isResourceRequest) return false;
  const path = attrs.path ?? '';
  return r.nonResourceURLs.some((spec) => pathMatches(path, spec));
}

/** `*` matches all, `/api*` any path starting `/api`, anything else only itself. */
export function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function matchesResource(r: PolicyRule, attrs: AuditAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  // Cluster-scoped requests have the empty namespace, which a rule may list.
  if (r.namespaces.length > 0 && !r.namespaces.includes(attrs.namespace ?? '')) return false;
  if (r.resources.length === 0) return true;
  const group = attrs.apiGroup ?? '';
  const resource = attrs.resource ?? '';
  const sub = attrs.subresource ?? '';
  const combined = sub === '' ? resource : `${resource}/${sub}`;
  const name = attrs.name ?? '';
  for (const gr of r.resources) {
    if (gr.group !== group && gr.group !== '*') continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (sub !== '' && res.startsWith('*/') && res.slice(2) === sub) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === resource) return true;
    }
  }
  return false;
}
