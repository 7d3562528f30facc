// The RBAC group (rbac.authorization.<group domain>/v1): Role, ClusterRole, RoleBinding and
// ClusterRoleBinding as stored kinds with upstream's validation and defaults. Deciding requests from
// them is src/auth/authz/rbac's; aggregation is a controller's; escalation checks sit in front of
// these kinds' writes (see strategy.ts).

import type { NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { clusterRoleKind } from './cluster-role.ts';
import { clusterRoleBindingKind } from './cluster-role-binding.ts';
import { roleKind } from './role.ts';
import { roleBindingKind } from './role-binding.ts';

export { defaultBinding } from './binding.ts';
export { clusterRoleKind } from './cluster-role.ts';
export { clusterRoleBindingKind } from './cluster-role-binding.ts';
export { roleKind } from './role.ts';
export { roleBindingKind } from './role-binding.ts';
export * from './types.ts';
export {
  rbacName,
  validateAggregationRule,
  validateBinding,
  validatePolicyRule,
  validateRoleRefUnchanged,
  validateRules,
  validateSubject,
} from './validation.ts';

export function rbacKinds(profile: NamingProfile): KindDefinition[] {
  return [
    roleKind(profile),
    clusterRoleKind(profile),
    roleBindingKind(profile),
    clusterRoleBindingKind(profile),
  ];
}
