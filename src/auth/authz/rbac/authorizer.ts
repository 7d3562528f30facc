// The RBAC authorizer and its rule resolver, both answering from the RbacIndex. A decision visits
// the user's bindings (cluster-wide, then the request's namespace) and the rules of each bound
// role until one allows: `RBAC: allowed by <binding>`; otherwise no opinion, naming the bindings
// whose roles could not be resolved (upstream's reason: `RBAC: <errors>`).

import { notFound } from '../../../machinery/status.ts';
import type { UserInfo } from '../../authn/types.ts';
import type { Attributes, Authorizer, Verdict } from '../types.ts';
import { describeBinding, isLookupError, type RbacIndex } from './policy-index.ts';
import type {
  NonResourceRuleInfo,
  PolicyRule,
  PolicyRulesResult,
  ResourceRuleInfo,
  RoleRef,
  RuleResolver,
  RulesForResult,
} from './types.ts';

/** Upstream's error aggregate: one message alone, several (deduplicated) as `[a, b]`. */
export function aggregateErrors(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}

const NO_OPINION: Verdict = Object.freeze({ decision: 'noOpinion', reason: '' }) as Verdict;

export class RbacAuthorizer implements Authorizer, RuleResolver {
  constructor(
    readonly index: RbacIndex,
    /** The RBAC API group, for NotFound errors (`clusterrole.<group> "x" not found`). */
    private readonly group: string,
  ) {}

  authorize(attrs: Attributes): Verdict {
    const index = this.index;
    // A request naming a group by its upstream alias is decided as one naming the canonical group.
    const canonical = attrs.isResourceRequest ? index.aliases.get(attrs.apiGroup) : undefined;
    const a = canonical === undefined ? attrs : { ...attrs, apiGroup: canonical };
    let allowedBy: string | undefined;
    let errors: string[] | undefined;
    index.visitBindings(a.user, a.namespace, (binding, subject) => {
      const role = index.resolveRole(binding.roleKind, binding.roleName, binding.namespace);
      if (isLookupError(role)) {
        errors ??= [];
        errors.push(role.error);
        return true;
      }
      if (!role.table.allows(a)) return true;
      allowedBy = describeBinding(binding, subject);
      return false;
    });
    if (allowedBy !== undefined) return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy}` };
    if (errors === undefined) return NO_OPINION;
    return { decision: 'noOpinion', reason: `RBAC: ${aggregateErrors(errors)}` };
  }

  policyRulesFor(user: UserInfo, namespace: string): PolicyRulesResult {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.index.visitBindings(user, namespace, (binding) => {
      const role = this.index.resolveRole(binding.roleKind, binding.roleName, binding.namespace);
      if (isLookupError(role)) errors.push(role.error);
      else rules.push(...role.rules);
      return true;
    });
    return { rules, errors };
  }

  rulesFor(user: UserInfo, namespace: string): RulesForResult {
    const { rules, errors } = this.policyRulesFor(user, namespace);
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const r of rules) {
      if ((r.resources?.length ?? 0) > 0) {
        resourceRules.push({
          verbs: [...(r.verbs ?? [])],
          apiGroups: [...(r.apiGroups ?? [])],
          resources: [...(r.resources ?? [])],
          resourceNames: [...(r.resourceNames ?? [])],
        });
      }
      if ((r.nonResourceURLs?.length ?? 0) > 0) {
        nonResourceRules.push({
          verbs: [...(r.verbs ?? [])],
          nonResourceURLs: [...(r.nonResourceURLs ?? [])],
        });
      }
    }
    return { resourceRules, nonResourceRules, incomplete: false, evaluationError: aggregateErrors(errors) };
  }

  roleRefRules(roleRef: RoleRef, bindingNamespace: string): PolicyRule[] {
    const role = this.index.resolveRole(roleRef.kind ?? '', roleRef.name ?? '', bindingNamespace);
    if (!isLookupError(role)) return [...role.rules];
    if (role.notFound !== undefined)
      throw notFound({ group: this.group, resource: role.notFound.resource }, role.notFound.name);
    throw new Error(role.error);
  }
}
