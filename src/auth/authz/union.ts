// The authorizer chain: the first allow or deny decides; reasons of the authorizers that had no
// opinion are joined so a denial says why, and so are their errors (upstream's aggregate).

import type { Attributes, Authorizer, Verdict } from './types.ts';

export class AuthzChain implements Authorizer {
  constructor(private readonly authorizers: readonly Authorizer[]) {}

  async authorize(a: Attributes): Promise<Verdict> {
    const reasons: string[] = [];
    const errors: string[] = [];
    for (const authz of this.authorizers) {
      const v = await authz.authorize(a);
      if (v.error !== undefined) errors.push(v.error);
      if (v.reason !== '') reasons.push(v.reason);
      if (v.decision !== 'noOpinion') return verdict(v.decision, reasons, errors);
    }
    return verdict('noOpinion', reasons, errors);
  }
}

function verdict(decision: Verdict['decision'], reasons: string[], errors: string[]): Verdict {
  const v: Verdict = { decision, reason: reasons.join('\n') };
  if (errors.length === 1) v.error = errors[0];
  else if (errors.length > 1) v.error = `[${errors.join(', ')}]`;
  return v;
}
