// The authorizer chain: the first allow or deny decides; reasons of the authorizers that had no
// opinion are joined so a denial says why, and so are their errors (upstream's aggregate). The rules
// a user has (SelfSubjectRulesReview) are the union of what the members that can list them say.

import type { UserInfo } from '../authn/types.ts';
import type { Attributes, Authorizer, RuleResolver, RulesResult, Verdict } from './types.ts';

/** Whether an authorizer can list a user's rules (SelfSubjectRulesReview). */
export function isRuleResolver(a: Authorizer): a is Authorizer & RuleResolver {
  return typeof (a as Partial<RuleResolver>).rulesFor === 'function';
}

export class AuthzChain implements Authorizer, RuleResolver {
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

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const errors: string[] = [];
    for (const authz of this.authorizers) {
      if (!isRuleResolver(authz)) continue;
      const r = await authz.rulesFor(user, namespace);
      out.resourceRules.push(...r.resourceRules);
      out.nonResourceRules.push(...r.nonResourceRules);
      if (r.incomplete) out.incomplete = true;
      if (r.evaluationError) errors.push(r.evaluationError);
    }
    if (errors.length === 1) out.evaluationError = errors[0];
    else if (errors.length > 1) out.evaluationError = `[${errors.join(', ')}]`;
    return out;
  }
}

function verdict(decision: Verdict['decision'], reasons: string[], errors: string[]): Verdict {
  const v: Verdict = { decision, reason: reasons.join('\n') };
  if (errors.length === 1) v.error = errors[0];
  else if (errors.length > 1) v.error = `[${errors.join(', ')}]`;
  return v;
}
