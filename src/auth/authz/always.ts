// The AlwaysAllow and AlwaysDeny modes of --authorization-mode. Both can say what they allow
// (everything, nothing) for SelfSubjectRulesReview, as upstream's do.

import type { Authorizer, RuleResolver, RulesResult } from './types.ts';

/** Every verb on every resource and path: what an authorizer allowing everything lists. */
export function everythingRules(): RulesResult {
  return {
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  };
}

export const alwaysAllow: Authorizer & RuleResolver = {
  authorize: () => ({ decision: 'allow', reason: '' }),
  rulesFor: everythingRules,
};

export const alwaysDeny: Authorizer & RuleResolver = {
  authorize: () => ({ decision: 'noOpinion', reason: 'Everything is forbidden.' }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};
