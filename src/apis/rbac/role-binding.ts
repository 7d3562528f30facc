// RoleBinding: grants a Role of its namespace, or a ClusterRole's permissions limited to its
// namespace, to a list of subjects.

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { bindingColumns, bindingStrategy } from './binding.ts';
import { roleBindingDeclarativeValidation } from './declarative-validation.ts';
import { RBAC_DEFINITIONS, ROLE_REF_PROPERTY, SUBJECTS_PROPERTY } from './schema.ts';
import { rbacGroup } from './types.ts';

const ROLE_REF_DESCRIPTION =
  'The role granted: a Role in this namespace or a ClusterRole, whose permissions then apply in this namespace only. An authorizer that cannot find it reports an error. It cannot be changed once set.';

export function roleBindingKind(profile: NamingProfile): KindDefinition {
  const group = rbacGroup(profile);
  const schema = compileKindSchema({
    group,
    version: 'v1',
    kind: 'RoleBinding',
    description:
      'Grants the permissions of one role to users, groups and service accounts, inside the namespace of the binding. The role is referred to, not copied.',
    required: ['roleRef'],
    properties: {
      subjects: SUBJECTS_PROPERTY,
      roleRef: ROLE_REF_PROPERTY(ROLE_REF_DESCRIPTION),
    },
    definitions: RBAC_DEFINITIONS,
  });
  return {
    resource: {
      group,
      version: 'v1',
      resource: 'rolebindings',
      singular: 'rolebinding',
      kind: 'RoleBinding',
      listKind: 'RoleBindingList',
      namespaced: true,
      verbs: STANDARD_VERBS,
      subresources: {},
    },
    schema,
    strategy: bindingStrategy(profile, true),
    table: bindingColumns('roleBinding', ROLE_REF_DESCRIPTION),
    declarativeValidation: roleBindingDeclarativeValidation,
  };
}
