// The default RBAC policy as data (one file per part of upstream's bootstrap policy) and its
// reconciliation at start. Imports naming/ and machinery/ only; the server hands in the stores.

export { CONTROLLER_ROLE_PREFIX } from './controller-roles.ts';
export { uncovered } from './covers.ts';
export { type PolicyNames, type PolicyRule, policyNames, type Subject } from './names.ts';
export type { BindingObject, RoleObject } from './objects.ts';
export { type DefaultPolicy, defaultPolicy } from './policy.ts';
export {
  type PolicyStore,
  type PolicyStores,
  type ReconcileReport,
  reconcileDefaultPolicy,
  reconciledBinding,
  reconciledRole,
} from './reconcile.ts';
export { ensureDefaultPolicy, type ServedPolicyResource, servedPolicyStores } from './served-stores.ts';
