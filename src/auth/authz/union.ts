// The authorizer chain: the first allow or deny decides; reasons of the authorizers that had no
// opinion are joined so a denial says why.

import type { Attributes, Authorizer, Verdict } from './types.ts';

export class AuthzChain implements Authorizer {
  constructor(private readonly authorizers: readonly Authorizer[]) {}

  async authorize(a: Attributes): Promise<Verdict> {
    const reasons: string[] = [];
    for (const authz of this.authorizers) {
      const v = await authz.authorize(a);
      if (v.decision !== 'noOpinion') return v;
      if (v.reason !== '') reasons.push(v.reason);
    }
    return { decision: 'noOpinion', reason: reasons.join('\n') };
  }
}
