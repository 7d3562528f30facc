// ClusterRoleBinding: grants a ClusterRole's permissions in every namespace (and on non-resource
// paths) to a list of subjects.

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { bindingColumns, bindingStrategy } from './binding.ts';
import { RBAC_DEFINITIONS, ROLE_REF_PROPERTY, SUBJECTS_PROPERTY } from './schema.ts';
import { rbacGroup } from './types.ts';

const ROLE_REF_DESCRIPTION =
  'The ClusterRole granted. An authorizer that cannot find it reports an error. It cannot be changed once set.';

export function clusterRoleBindingKind(profile: NamingProfile): KindDefinition {
  const group = rbacGroup(profile);
  const schema = compileKindSchema({
    group,
    version: 'v1',
    kind: 'ClusterRoleBinding',
    description:
      'Grants the permissions of one ClusterRole to users, groups and service accounts across the whole cluster. The role is referred to, not copied.',
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
      resource: 'clusterrolebindings',
      singular: 'clusterrolebinding',
      kind: 'ClusterRoleBinding',
      listKind: 'ClusterRoleBindingList',
      namespaced: false,
      verbs: STANDARD_VERBS,
      subresources: {},
    },
    schema,
    strategy: bindingStrategy(profile, false),
    table: bindingColumns('clusterRoleBinding', ROLE_REF_DESCRIPTION),
  };
}
