// The whole default policy under one naming profile: what the reconciliation at start ensures.

import type { NamingProfile } from '../../../naming/profile.ts';
import { defaultClusterRoleBindings } from './cluster-role-bindings.ts';
import { defaultClusterRoles } from './cluster-roles.ts';
import { defaultControllerRoleBindings, defaultControllerRoles } from './controller-roles.ts';
import { policyNames } from './names.ts';
import { defaultNamespaceRoleBindings, defaultNamespaceRoles } from './namespace-roles.ts';
import type { BindingObject, RoleObject } from './objects.ts';

export interface DefaultPolicy {
  clusterRoles: RoleObject[];
  clusterRoleBindings: BindingObject[];
  roles: RoleObject[];
  roleBindings: BindingObject[];
}

export function defaultPolicy(profile: NamingProfile): DefaultPolicy {
  const n = policyNames(profile);
  return {
    clusterRoles: [...defaultClusterRoles(n), ...defaultControllerRoles(n)],
    clusterRoleBindings: [...defaultClusterRoleBindings(n), ...defaultControllerRoleBindings(n)],
    roles: defaultNamespaceRoles(n),
    roleBindings: defaultNamespaceRoleBindings(n),
  };
}
