// Escalation prevention on writes of the RBAC kinds (upstream's policy-based role and binding
// storage). A Role or ClusterRole may be written by someone who holds every permission in it at
// that scope, or who may `escalate` roles/clusterroles; a binding by someone who holds every
// permission of the role it references, or who may `bind` that role (resourceNames can restrict
// which). Members of system:masters, and requests without a user, always pass. Runs as a
// validating admission plugin so it sees the request's user and the prepared object.

import { isDeepStrictEqual } from 'node:util';
import type { AdmissionAttributes, ValidatingPlugin } from '../../../admission/types.ts';
import { goQuote } from '../../../machinery/field-errors.ts';
import type { ApiObject } from '../../../machinery/object.ts';
import { forbidden } from '../../../machinery/status.ts';
import type { UserInfo } from '../../authn/types.ts';
import { SYSTEM_PRIVILEGED_GROUP } from '../privileged-groups.ts';
import type { Attributes, Authorizer } from '../types.ts';
import { aggregateErrors } from './authorizer.ts';
import { compactRules, compactString, covers, type GroupAliases, goQuoteList } from './rules.ts';
import type { BindingObject, PolicyRule, RoleObject, RuleResolver } from './types.ts';

/** What it takes to use an aggregationRule: everything, as cluster-admin holds it. */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

const AGGREGATION_DENIED = 'must have cluster-admin privileges to use the aggregationRule';

/**
 * Upstream's ConfirmNoEscalation: undefined when the user's rules in the namespace cover `wanted`,
 * otherwise the message listing what is missing.
 */
export function confirmNoEscalation(
  resolver: RuleResolver,
  user: UserInfo,
  namespace: string,
  wanted: readonly PolicyRule[],
  aliases?: GroupAliases,
): string | undefined {
  const { rules, errors } = resolver.policyRulesFor(user, namespace);
  const { covered, missing } = covers(rules, wanted, aliases);
  if (covered) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (errors.length > 0) msg += `; resolution errors: [${aggregateErrors(errors)}]`;
  return msg;
}

/** Whether the user bypasses escalation checks (system:masters; upstream's EscalationAllowed). */
export function escalationAllowed(user: UserInfo | undefined): boolean {
  return user === undefined || user.groups.includes(SYSTEM_PRIVILEGED_GROUP);
}

const GC_FIELDS = [
  'ownerReferences',
  'finalizers',
  'managedFields',
  'resourceVersion',
  'generation',
  'selfLink',
];

/** Whether an update changes only what the garbage collector changes (owners and finalizers). */
export function onlyGcFieldsChange(obj: ApiObject, old: ApiObject): boolean {
  const strip = (o: ApiObject) => {
    const meta = { ...(o.metadata ?? {}) };
    for (const f of GC_FIELDS) delete meta[f];
    const { apiVersion: _v, kind: _k, ...rest } = o;
    return { ...rest, metadata: meta };
  };
  return isDeepStrictEqual(strip(obj), strip(old));
}

export interface EscalationCheckOptions {
  /** The RBAC API group (canonical name); writes of its four resources are checked. */
  group: string;
  /** The server's whole authorizer chain, asked for `escalate` and `bind`. */
  authorizer: () => Authorizer;
  /** RBAC's rule resolver (asked lazily: the server builds it after its admission chain). */
  rules: () => RuleResolver;
  /** Upstream group names to the profile's: a permission held under either name counts. */
  groupAliases?: GroupAliases;
}

function attributes(
  user: UserInfo,
  verb: string,
  group: string,
  resource: string,
  ns: string,
  name: string,
): Attributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: group,
    apiVersion: '*',
    resource,
    subresource: '',
    namespace: ns,
    name,
  };
}

async function allowed(authz: Authorizer, a: Attributes): Promise<boolean> {
  try {
    return (await authz.authorize(a)).decision === 'allow';
  } catch {
    return false;
  }
}

function hasAggregationRule(obj: ApiObject | undefined): boolean {
  const rule = (obj as RoleObject | undefined)?.aggregationRule;
  return Array.isArray(rule?.clusterRoleSelectors) && rule.clusterRoleSelectors.length > 0;
}

/** The admission plugin checking writes of roles, clusterroles, rolebindings and clusterrolebindings. */
export function rbacEscalationCheck(o: EscalationCheckOptions): ValidatingPlugin {
  const checkRole = async (a: AdmissionAttributes, user: UserInfo, obj: ApiObject) => {
    // Upstream asks with the request's name, which a create (POST) does not have.
    const name = a.operation === 'CREATE' ? '' : a.name;
    if (await allowed(o.authorizer(), attributes(user, 'escalate', o.group, a.resource, a.namespace, name)))
      return;
    if (a.operation === 'UPDATE' && a.oldObject !== undefined && onlyGcFieldsChange(obj, a.oldObject)) return;
    const gr = { group: o.group, resource: a.resource };
    const objName = String(obj.metadata?.name ?? a.name);
    const rules = (obj as RoleObject).rules;
    const missing = confirmNoEscalation(
      o.rules(),
      user,
      a.namespace,
      Array.isArray(rules) ? rules : [],
      o.groupAliases,
    );
    if (missing !== undefined) throw forbidden(gr, objName, missing);
    if (a.resource === 'clusterroles' && (hasAggregationRule(obj) || hasAggregationRule(a.oldObject))) {
      if (confirmNoEscalation(o.rules(), user, '', FULL_AUTHORITY) !== undefined)
        throw forbidden(gr, objName, AGGREGATION_DENIED);
    }
  };

  const checkBinding = async (a: AdmissionAttributes, user: UserInfo, obj: ApiObject) => {
    if (a.operation === 'UPDATE' && a.oldObject !== undefined && onlyGcFieldsChange(obj, a.oldObject)) return;
    const ns = a.resource === 'rolebindings' ? a.namespace : '';
    const ref = (obj as BindingObject).roleRef ?? {};
    const roleResource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : '';
    if (
      roleResource !== '' &&
      (await allowed(o.authorizer(), attributes(user, 'bind', o.group, roleResource, ns, ref.name ?? '')))
    )
      return;
    // A missing role is upstream's NotFound (404) from its lister.
    const resolver = o.rules();
    const rules = resolver.roleRefRules(ref, ns);
    const missing = confirmNoEscalation(resolver, user, ns, rules, o.groupAliases);
    if (missing !== undefined)
      throw forbidden(
        { group: o.group, resource: a.resource },
        String(obj.metadata?.name ?? a.name),
        missing,
      );
  };

  return {
    name: 'RBACEscalationCheck',
    // Upstream checks in the RBAC kinds' storage, before admission: no admission controller metrics.
    notAdmissionController: true,
    async validate(a) {
      if (a.group !== o.group || a.subresource !== '') return;
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      if (a.object === undefined || escalationAllowed(a.user)) return;
      const user = a.user as UserInfo;
      if (a.resource === 'roles' || a.resource === 'clusterroles') await checkRole(a, user, a.object);
      else if (a.resource === 'rolebindings' || a.resource === 'clusterrolebindings')
        await checkBinding(a, user, a.object);
    },
  };
}
