// The AlwaysAllow and AlwaysDeny modes of --authorization-mode.

import type { Authorizer } from './types.ts';

export const alwaysAllow: Authorizer = { authorize: () => ({ decision: 'allow', reason: '' }) };

export const alwaysDeny: Authorizer = {
  authorize: () => ({ decision: 'noOpinion', reason: 'Everything is forbidden.' }),
};
