// What RoleBinding and ClusterRoleBinding share: upstream's defaults (the roleRef's group and
// User/Group subjects' group filled in), validation with the immutable roleRef, and the table
// kubectl shows (ROLE as `Kind/name`; USERS, GROUPS and SERVICEACCOUNTS with -o wide).

import type { TableColumn } from '../../codec/table.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { NamingProfile } from '../../naming/profile.ts';
import type { Strategy } from '../../registry/strategy.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { RBAC_STRATEGY_DEFAULTS } from './strategy.ts';
import {
  GROUP_KIND,
  type RoleRef,
  rbacGroup,
  SERVICE_ACCOUNT_KIND,
  type Subject,
  USER_KIND,
} from './types.ts';
import { validateBinding, validateRoleRefUnchanged } from './validation.ts';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Upstream's SetDefaults for bindings and subjects, with the profile's group name: an empty roleRef
 * group and an empty User/Group subject group become the RBAC group. Values sent are kept as sent,
 * either name of the group included, so what a client wrote is what it reads back.
 */
export function defaultBinding(profile: NamingProfile, obj: ApiObject): void {
  const group = rbacGroup(profile);
  // Go decodes a missing roleRef into its zero value, which the defaults then fill.
  if (!isRecord(obj.roleRef)) obj.roleRef = {};
  const ref = obj.roleRef as RoleRef;
  if (typeof ref.apiGroup !== 'string' || ref.apiGroup === '') ref.apiGroup = group;
  if (!Array.isArray(obj.subjects)) return;
  for (const s of obj.subjects as (Subject | null)[]) {
    if (!isRecord(s) || (typeof s.apiGroup === 'string' && s.apiGroup !== '')) continue;
    if (s.kind === USER_KIND || s.kind === GROUP_KIND) s.apiGroup = group;
  }
}

export function bindingStrategy(profile: NamingProfile, namespaced: boolean): Strategy {
  const validate = (obj: ApiObject) => validateBinding(profile, obj, namespaced);
  return {
    ...RBAC_STRATEGY_DEFAULTS,
    namespaced,
    applyDefaults: (obj) => defaultBinding(profile, obj),
    validate,
    // Upstream's update validation runs the create checks once more, then compares the roleRef.
    validateUpdate: (obj, old) => [
      ...validate(obj),
      ...validateRoleRefUnchanged(profile, obj.roleRef as RoleRef, old.roleRef as RoleRef),
    ],
  };
}

/** Upstream's display of subjects: users, groups, and service accounts as `namespace/name`. */
function subjectsOf(obj: ApiObject, kind: string): string {
  const subjects = Array.isArray(obj.subjects) ? (obj.subjects as (Subject | null)[]) : [];
  return subjects
    .filter((s): s is Subject => isRecord(s) && s.kind === kind)
    .map((s) => (kind === SERVICE_ACCOUNT_KIND ? `${s.namespace ?? ''}/${s.name ?? ''}` : (s.name ?? '')))
    .join(', ');
}

export function bindingColumns(kindWord: string, roleDescription: string): TableColumn[] {
  return [
    NAME_COLUMN,
    {
      name: 'Role',
      type: 'string',
      description: roleDescription,
      cell: (obj) => {
        const ref = isRecord(obj.roleRef) ? (obj.roleRef as RoleRef) : {};
        return `${ref.kind ?? ''}/${ref.name ?? ''}`;
      },
    },
    AGE_COLUMN,
    {
      name: 'Users',
      type: 'string',
      priority: 1,
      description: `Users in the ${kindWord}`,
      cell: (obj) => subjectsOf(obj, USER_KIND),
    },
    {
      name: 'Groups',
      type: 'string',
      priority: 1,
      description: `Groups in the ${kindWord}`,
      cell: (obj) => subjectsOf(obj, GROUP_KIND),
    },
    {
      name: 'ServiceAccounts',
      type: 'string',
      priority: 1,
      description: `ServiceAccounts in the ${kindWord}`,
      cell: (obj) => subjectsOf(obj, SERVICE_ACCOUNT_KIND),
    },
  ];
}
