// The authorization group: the access reviews (SubjectAccessReview, LocalSubjectAccessReview,
// SelfSubjectAccessReview) and SelfSubjectRulesReview, answered by the server's authorizer chain and
// never stored. The server hands its authorizer and rule resolver over once it has built them.

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { accessReviewKind } from './access-reviews.ts';
import { rulesReviewKind } from './rules-review.ts';
import type { ReviewAuthorizer, ReviewRuleResolver } from './types.ts';

export { accessReviewKind } from './access-reviews.ts';
export { rulesReviewKind } from './rules-review.ts';
export type { ReviewAuthorizer, ReviewRuleResolver } from './types.ts';

export interface AuthorizationDeps {
  authorizer?: () => ReviewAuthorizer | undefined;
  ruleResolver?: () => ReviewRuleResolver | undefined;
}

export function authorizationKinds(profile: NamingProfile, deps: AuthorizationDeps = {}): KindDefinition[] {
  return [
    accessReviewKind(profile, 'SubjectAccessReview', deps.authorizer),
    accessReviewKind(profile, 'LocalSubjectAccessReview', deps.authorizer),
    accessReviewKind(profile, 'SelfSubjectAccessReview', deps.authorizer),
    rulesReviewKind(profile, deps.ruleResolver),
  ];
}
