// The shapes of the default policy's objects and the metadata every one of them carries (upstream
// marks each with the bootstrapping label and autoupdate "true"), so the data files list only
// names, rules and subjects.

import type { ApiObject } from '../../../machinery/object.ts';
import { BOOTSTRAPPING_VALUE, type PolicyNames, type PolicyRule, type Subject } from './names.ts';

export interface RoleObject extends ApiObject {
  kind: 'ClusterRole' | 'Role';
  metadata: {
    name: string;
    namespace?: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  rules: PolicyRule[];
  aggregationRule?: { clusterRoleSelectors: { matchLabels: Record<string, string> }[] };
}

export interface BindingObject extends ApiObject {
  kind: 'ClusterRoleBinding' | 'RoleBinding';
  metadata: {
    name: string;
    namespace?: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  roleRef: { apiGroup: string; kind: 'ClusterRole' | 'Role'; name: string };
  subjects?: Subject[];
}

function metadata(n: PolicyNames, name: string, namespace?: string, labels: Record<string, string> = {}) {
  return {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    labels: { ...labels, [n.bootstrappingLabel]: BOOTSTRAPPING_VALUE },
    annotations: { [n.autoupdateAnnotation]: 'true' },
  };
}

export interface RoleSpec {
  name: string;
  rules?: PolicyRule[];
  /** Extra labels (the aggregate-to-* ones). */
  labels?: Record<string, string>;
  /** Labels whose ClusterRoles this one aggregates (one selector each). */
  aggregates?: Record<string, string>[];
}

export function clusterRole(n: PolicyNames, spec: RoleSpec): RoleObject {
  const out: RoleObject = {
    apiVersion: `${n.rbacGroup}/v1`,
    kind: 'ClusterRole',
    metadata: metadata(n, spec.name, undefined, spec.labels),
    rules: spec.rules ?? [],
  };
  if (spec.aggregates !== undefined) {
    out.aggregationRule = { clusterRoleSelectors: spec.aggregates.map((matchLabels) => ({ matchLabels })) };
  }
  return out;
}

export function role(n: PolicyNames, namespace: string, name: string, rules: PolicyRule[]): RoleObject {
  return { apiVersion: `${n.rbacGroup}/v1`, kind: 'Role', metadata: metadata(n, name, namespace), rules };
}

/** A ClusterRoleBinding named as its ClusterRole, as upstream's defaults all are. */
export function clusterRoleBinding(n: PolicyNames, roleName: string, subjects: Subject[]): BindingObject {
  const out: BindingObject = {
    apiVersion: `${n.rbacGroup}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: metadata(n, roleName),
    roleRef: { apiGroup: n.rbacGroup, kind: 'ClusterRole', name: roleName },
  };
  // Upstream's system:node binding has no subjects (the Node authorizer took them over): omitted.
  if (subjects.length > 0) out.subjects = subjects;
  return out;
}

export function roleBinding(
  n: PolicyNames,
  namespace: string,
  name: string,
  roleName: string,
  subjects: Subject[],
): BindingObject {
  return {
    apiVersion: `${n.rbacGroup}/v1`,
    kind: 'RoleBinding',
    metadata: metadata(n, name, namespace),
    roleRef: { apiGroup: n.rbacGroup, kind: 'Role', name: roleName },
    subjects,
  };
}
