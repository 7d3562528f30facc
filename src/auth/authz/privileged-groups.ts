// Members of the privileged group (system:masters) are allowed everything whatever the modes say,
// placed first as upstream does, so an administrator can never lock themselves out.

import type { Authorizer } from './types.ts';

export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

export function privilegedGroups(groups: readonly string[] = [SYSTEM_PRIVILEGED_GROUP]): Authorizer {
  return {
    authorize: (a) =>
      a.user.groups.some((g) => groups.includes(g))
        ? { decision: 'allow', reason: '' }
        : { decision: 'noOpinion', reason: '' },
  };
}
