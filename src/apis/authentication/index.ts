// The authentication group: TokenReview and SelfSubjectReview, answered and never stored.

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { selfSubjectReviewKind } from './self-subject-review.ts';
import { type TokenReviewer, tokenReviewKind } from './token-review.ts';

export { selfSubjectReviewKind } from './self-subject-review.ts';
export { type TokenReviewer, tokenReviewKind } from './token-review.ts';
export { EXTRA_VALUE, USER_INFO, userInfoOf } from './user-info.ts';

export function authenticationKinds(
  profile: NamingProfile,
  tokenReviewer?: () => TokenReviewer | undefined,
): KindDefinition[] {
  return [tokenReviewKind(profile, tokenReviewer), selfSubjectReviewKind(profile)];
}
