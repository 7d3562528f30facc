// ClusterRole: a cluster-wide set of policy rules, granted everywhere by ClusterRoleBindings or in
// one namespace by RoleBindings; with an aggregationRule its rules are the union of the ClusterRoles
// its selectors match (kept so by the aggregation controller, not here).

import type { ApiObject } from '../../machinery/object.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { RBAC_DEFINITIONS, RULES_PROPERTY } from './schema.ts';
import { RBAC_STRATEGY_DEFAULTS } from './strategy.ts';
import { type AggregationRule, rbacGroup } from './types.ts';
import { validateAggregationRule, validateRules } from './validation.ts';

function validateClusterRole(obj: ApiObject) {
  return [
    ...validateRules(obj.rules, false),
    ...validateAggregationRule(obj.aggregationRule as AggregationRule | null),
  ];
}

export function clusterRoleKind(profile: NamingProfile): KindDefinition {
  const group = rbacGroup(profile);
  const schema = compileKindSchema({
    group,
    version: 'v1',
    kind: 'ClusterRole',
    description:
      'A set of permissions across the cluster, given by ClusterRoleBindings everywhere or by RoleBindings in one namespace.',
    properties: {
      rules: RULES_PROPERTY('The permissions this ClusterRole grants.'),
      aggregationRule: {
        ref: 'AggregationRule',
        description:
          'When set, the rules are not written by hand: they are kept equal to the union of the rules of the ClusterRoles it selects, and hand edits are overwritten.',
        proto: 3,
        protoPointer: true,
      },
    },
    definitions: RBAC_DEFINITIONS,
  });
  return {
    resource: {
      group,
      version: 'v1',
      resource: 'clusterroles',
      singular: 'clusterrole',
      kind: 'ClusterRole',
      listKind: 'ClusterRoleList',
      namespaced: false,
      verbs: STANDARD_VERBS,
      subresources: {},
    },
    schema,
    strategy: {
      ...RBAC_STRATEGY_DEFAULTS,
      namespaced: false,
      validate: validateClusterRole,
      // Upstream's update validation runs the create checks once more. (Upstream also lets an update
      // keep selector label values that were stored before today's rules; the generic store runs the
      // create checks on updates too, so that allowance cannot be expressed here. Such objects can
      // only come from a store shared with an old server.)
      validateUpdate: validateClusterRole,
    },
  };
}
