// What an authorizer is asked and what it answers. The attribute set is the full one RBAC, Node and
// Webhook authorizers need, so adding them later changes nothing upstream of this file. The shapes
// the access reviews in apis/ share are declared in machinery/authorization.ts (apis/ may not
// import auth/); the user here is authentication's.

import type { AuthorizerAttributes, RulesResult, Verdict } from '../../machinery/authorization.ts';
import type { UserInfo } from '../authn/types.ts';

export type {
  Decision,
  NonResourceRuleInfo,
  ResourceRuleInfo,
  RulesResult,
  SelectorRequirement,
  Verdict,
} from '../../machinery/authorization.ts';

export type Attributes = AuthorizerAttributes<UserInfo>;

export interface Authorizer {
  authorize(a: Attributes): Verdict | Promise<Verdict>;
}

/**
 * An authorizer that can list what a user may do in a namespace (`kubectl auth can-i --list`).
 * Authorizers that cannot leave it out; the chain reports the union of those that can.
 */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesResult | Promise<RulesResult>;
}
