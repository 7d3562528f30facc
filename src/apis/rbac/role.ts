// Role: a namespaced set of policy rules, granted inside its namespace by RoleBindings.

import type { ApiObject } from '../../machinery/object.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { RBAC_DEFINITIONS, RULES_PROPERTY } from './schema.ts';
import { RBAC_STRATEGY_DEFAULTS } from './strategy.ts';
import { rbacGroup } from './types.ts';
import { validateRules } from './validation.ts';

function validateRole(obj: ApiObject) {
  return validateRules(obj.rules, true);
}

export function roleKind(profile: NamingProfile): KindDefinition {
  const group = rbacGroup(profile);
  const schema = compileKindSchema({
    group,
    version: 'v1',
    kind: 'Role',
    description:
      'A set of permissions inside one namespace, given to users, groups and service accounts by RoleBindings in that namespace.',
    properties: {
      rules: RULES_PROPERTY('The permissions this Role grants.'),
    },
    definitions: RBAC_DEFINITIONS,
  });
  return {
    resource: {
      group,
      version: 'v1',
      resource: 'roles',
      singular: 'role',
      kind: 'Role',
      listKind: 'RoleList',
      namespaced: true,
      verbs: STANDARD_VERBS,
      subresources: {},
    },
    schema,
    strategy: {
      ...RBAC_STRATEGY_DEFAULTS,
      namespaced: true,
      validate: validateRole,
      // Upstream's update validation runs the create checks once more.
      validateUpdate: validateRole,
    },
  };
}
