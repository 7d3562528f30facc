// What the reviews need of the server's authorization layer, declared here so that apis/ does not
// reach up into auth/: the authorizer chain and its rule resolver satisfy these shapes as they are.
// The shapes both sides share are machinery/authorization.ts's; the user is the registry's.

import type { AuthorizerAttributes, RulesResult, Verdict } from '../../machinery/authorization.ts';
import type { RequestUser } from '../../registry/kind.ts';

export type { SelectorRequirement } from '../../machinery/authorization.ts';

export type ReviewAttributesRecord = AuthorizerAttributes<RequestUser>;

export type ReviewVerdict = Verdict;

export interface ReviewAuthorizer {
  authorize(a: ReviewAttributesRecord): ReviewVerdict | Promise<ReviewVerdict>;
}

export type ReviewRulesResult = RulesResult;

export interface ReviewRuleResolver {
  rulesFor(user: RequestUser, namespace: string): ReviewRulesResult | Promise<ReviewRulesResult>;
}
