// The Node authorizer's fixed rules and its rule listing. Requests it does not subdivide by the
// graph are checked against the rules of the default `system:node` ClusterRole (upstream's
// NodeRules, which that role is built from), so one list says what every node agent may do.
// Listing: a node's permissions come from a graph walked per request, so for a node identity the
// list is flagged incomplete, as upstream does; other users get nothing from this authorizer.

import type { NamingProfile } from '../../../naming/profile.ts';
import type { UserInfo } from '../../authn/types.ts';
import { defaultPolicy } from '../bootstrap-policy/policy.ts';
import { type CompiledRule, compiledRuleAllows, compileRule } from '../rbac/rules.ts';
import type { Attributes, RulesResult } from '../types.ts';
import { nodeIdentity } from './identity.ts';

export const NODE_ROLE = 'system:node';

const compiled = new Map<NamingProfile, readonly CompiledRule[]>();

/** The compiled rules of the default system:node role under a profile (built once per profile). */
export function nodeRules(profile: NamingProfile): readonly CompiledRule[] {
  let rules = compiled.get(profile);
  if (rules === undefined) {
    const role = defaultPolicy(profile).clusterRoles.find((r) => r.metadata.name === NODE_ROLE);
    rules = (role?.rules ?? []).map((r) => compileRule(r));
    compiled.set(profile, rules);
  }
  return rules;
}

export function nodeRulesAllow(rules: readonly CompiledRule[], a: Attributes): boolean {
  return rules.some((r) => compiledRuleAllows(r, a));
}

export function nodeRulesFor(user: UserInfo): RulesResult {
  const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
  if (nodeIdentity(user) === undefined) return out;
  out.incomplete = true;
  out.evaluationError = 'node authorizer does not support user rule resolution';
  return out;
}
