// Schema pieces the four RBAC kinds share: a rule, a subject, a role reference and the aggregation
// rule, with upstream's protobuf field numbers (k8s.io/api rbac/v1 generated.proto). Descriptions
// are ours. `required` marks what upstream's documents mark; the hand-written validation in
// validation.ts says the errors, so the kinds do not run the schema's own required check.

import type { SchemaNode } from '../../schema/types.ts';

const stringList = (description: string, proto: number): SchemaNode => ({
  type: 'array',
  description,
  items: { type: 'string', default: '' },
  listType: 'atomic',
  proto,
});

export const POLICY_RULE: SchemaNode = {
  type: 'object',
  description:
    'One grant: the verbs allowed on the listed resources of the listed API groups, or on the listed non-resource paths. It says nothing about who receives it or in which namespace.',
  required: ['verbs'],
  properties: {
    verbs: stringList(
      'The actions this rule allows (get, list, create, ...), for every resource or path it covers; "*" allows every verb.',
      1,
    ),
    apiGroups: stringList(
      'The API groups whose resources this rule covers; a request in any of them matches. "" is the core group and "*" any group.',
      2,
    ),
    resources: stringList(
      'The resources this rule covers; "*" is every resource, "name/sub" a sub-resource and "*/sub" that sub-resource of every resource.',
      3,
    ),
    resourceNames: stringList(
      'Object names this rule is limited to. Empty means every object of the covered resources.',
      4,
    ),
    nonResourceURLs: stringList(
      'Paths outside the resource API (such as "/healthz") that this rule covers; a trailing "*" matches every path below the prefix. Only meaningful in a ClusterRole bound by a ClusterRoleBinding, and a rule covers either resources or such paths, never both.',
      5,
    ),
  },
};

export const SUBJECT: SchemaNode = {
  type: 'object',
  description:
    'Who a binding grants its role to: a user or group by name, or a service account by namespace and name.',
  required: ['kind', 'name'],
  properties: {
    kind: {
      type: 'string',
      description:
        'The sort of subject: "User", "Group" or "ServiceAccount". An authorizer that does not know the kind reports an error.',
      proto: 1,
      protoKeepZero: true,
    },
    apiGroup: {
      type: 'string',
      description:
        "The API group of the subject's kind: empty for ServiceAccount, the RBAC group for User and Group (filled in when left out).",
      proto: 2,
    },
    name: {
      type: 'string',
      description: 'The name of the user, group or service account.',
      proto: 3,
      protoKeepZero: true,
    },
    namespace: {
      type: 'string',
      description:
        'The namespace of a ServiceAccount subject. Users and groups have none; an authorizer reports an error when one is set for them.',
      proto: 4,
    },
  },
  structType: 'atomic',
};

export const ROLE_REF: SchemaNode = {
  type: 'object',
  description: 'The role a binding grants, by group, kind and name.',
  required: ['apiGroup', 'kind', 'name'],
  properties: {
    apiGroup: {
      type: 'string',
      description: 'The API group of the referenced role: the RBAC group.',
      proto: 1,
      protoKeepZero: true,
    },
    kind: {
      type: 'string',
      description: 'The kind of the referenced role: Role or ClusterRole.',
      proto: 2,
      protoKeepZero: true,
    },
    name: {
      type: 'string',
      description: 'The name of the referenced role.',
      proto: 3,
      protoKeepZero: true,
    },
  },
  structType: 'atomic',
};

export const AGGREGATION_RULE: SchemaNode = {
  type: 'object',
  description: 'Which ClusterRoles a ClusterRole gathers its rules from.',
  properties: {
    clusterRoleSelectors: {
      type: 'array',
      description:
        'Label selectors over ClusterRoles; the rules of every ClusterRole that any of them matches are added to this one.',
      items: { ref: 'LabelSelector' },
      listType: 'atomic',
      proto: 1,
    },
  },
};

/** The definitions the kinds refer to by name (LabelSelector comes with the shared metadata ones). */
export const RBAC_DEFINITIONS: Record<string, SchemaNode> = {
  PolicyRule: POLICY_RULE,
  Subject: SUBJECT,
  RoleRef: ROLE_REF,
  AggregationRule: AGGREGATION_RULE,
};

export const RULES_PROPERTY = (description: string): SchemaNode => ({
  type: 'array',
  description,
  items: { ref: 'PolicyRule' },
  listType: 'atomic',
  proto: 2,
});

export const SUBJECTS_PROPERTY: SchemaNode = {
  type: 'array',
  description: 'The users, groups and service accounts that receive the role.',
  items: { ref: 'Subject' },
  listType: 'atomic',
  proto: 2,
};

export const ROLE_REF_PROPERTY = (description: string): SchemaNode => ({
  ref: 'RoleRef',
  description,
  proto: 3,
});
