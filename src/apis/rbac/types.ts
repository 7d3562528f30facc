// The RBAC objects' shapes and the group they live in. The authorizer, the aggregation controller
// and the default policy read the same four kinds; these types and helpers are what they share.

import { sameGroup, upstreamGroupAlias } from '../../naming/group-aliases.ts';
import { groupName, type NamingProfile } from '../../naming/profile.ts';

export type { PolicyRule, RoleRef, Subject } from '../../machinery/authorization.ts';

export interface AggregationRule {
  clusterRoleSelectors?: {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  }[];
}

export const USER_KIND = 'User';
export const GROUP_KIND = 'Group';
export const SERVICE_ACCOUNT_KIND = 'ServiceAccount';

/** `rbac.authorization.<group domain>`: the group every role, binding and roleRef names. */
export function rbacGroup(profile: NamingProfile): string {
  return groupName(profile, 'rbac.authorization');
}

/**
 * The group names a roleRef or a User/Group subject may carry: the profile's, and under a profile
 * that renames groups also upstream's, which stock kubectl writes (`kubectl create rolebinding`)
 * and every existing manifest carries. Canonical first.
 */
export function rbacGroupNames(profile: NamingProfile): string[] {
  const own = rbacGroup(profile);
  const alias = upstreamGroupAlias(profile, own);
  return alias === undefined ? [own] : [own, alias];
}

/** Whether a roleRef's or subject's apiGroup names the RBAC group under this profile. */
export function isRbacGroup(profile: NamingProfile, group: string | undefined): boolean {
  return group !== undefined && group !== '' && sameGroup(profile, rbacGroup(profile), group);
}
