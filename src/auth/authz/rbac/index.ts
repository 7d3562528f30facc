// RBAC: the authorizer deciding from an in-memory index of Roles, ClusterRoles, RoleBindings and
// ClusterRoleBindings fed by watches (never a store read per decision), its rule resolver, and the
// escalation checks on writes of the four kinds. Imports auth/authn types, machinery and naming.

export * from './authorizer.ts';
export * from './create.ts';
export * from './escalation.ts';
export * from './memory-source.ts';
export * from './policy-index.ts';
export * from './rules.ts';
export type * from './types.ts';
export { RBAC_KINDS } from './types.ts';
