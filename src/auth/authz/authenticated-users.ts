// The default authorizer until RBAC lands: whoever proved an identity may do anything, and an
// anonymous request gets no opinion here, so it reaches only what the public and discovery
// authorizers before it allow. An open port must not mean open data.

import { GROUP_AUTHENTICATED } from '../authn/types.ts';
import type { Authorizer } from './types.ts';

export const authenticatedUsers: Authorizer = {
  authorize: (a) =>
    a.user.groups.includes(GROUP_AUTHENTICATED)
      ? { decision: 'allow', reason: '' }
      : { decision: 'noOpinion', reason: '' },
};
