// The default authorizer until RBAC lands: whoever proved an identity may do anything, and an
// anonymous request gets no opinion here, so it reaches only what the public and discovery
// authorizers before it allow. An open port must not mean open data.

import { GROUP_AUTHENTICATED } from '../authn/types.ts';
import { everythingRules } from './always.ts';
import type { Authorizer, RuleResolver } from './types.ts';

export const authenticatedUsers: Authorizer & RuleResolver = {
  authorize: (a) =>
    a.user.groups.includes(GROUP_AUTHENTICATED)
      ? { decision: 'allow', reason: '' }
      : { decision: 'noOpinion', reason: '' },
  rulesFor: (user) =>
    user.groups.includes(GROUP_AUTHENTICATED)
      ? everythingRules()
      : { resourceRules: [], nonResourceRules: [], incomplete: false },
};
