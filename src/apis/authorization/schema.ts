// The wire shapes of the authorization group's reviews (SubjectAccessReview and its local and self
// forms, SelfSubjectRulesReview): one schema per kind, sharing the attribute and rule definitions,
// with upstream's protobuf field numbers (k8s.io/api/authorization/v1).

import { compileKindSchema } from '../../schema/compile.ts';
import type { KindSchema, SchemaNode } from '../../schema/types.ts';
import { EXTRA_VALUE } from '../authentication/user-info.ts';

const str = (description: string, proto: number): SchemaNode => ({ type: 'string', description, proto });
const strings = (description: string, proto: number): SchemaNode => ({
  type: 'array',
  description,
  items: { type: 'string' },
  listType: 'atomic',
  proto,
});

const SELECTOR_REQUIREMENT: SchemaNode = {
  type: 'object',
  description: 'One condition of a selector: a key, an operator and the values it relates them to.',
  required: ['key', 'operator'],
  properties: {
    key: str('The label or field the condition is about.', 1),
    operator: str('How key and values relate: In, NotIn, Exists or DoesNotExist.', 2),
    values: strings('The values for In and NotIn; empty for Exists and DoesNotExist.', 3),
  },
};

const selectorAttributes = (what: string): SchemaNode => ({
  type: 'object',
  description: `The ${what} selector a list or watch would use, for authorizers that decide by it. Give rawSelector or requirements, not both.`,
  properties: {
    rawSelector: str(`The ${what} selector as it is written in a query string.`, 1),
    requirements: {
      type: 'array',
      description: 'The selector as a list of conditions, all of which must hold.',
      items: { ref: 'SelectorRequirement' },
      listType: 'atomic',
      proto: 2,
    },
  },
});

const RESOURCE_ATTRIBUTES: SchemaNode = {
  type: 'object',
  description: 'The request to check, for an API resource.',
  properties: {
    namespace: str('The namespace of the action; empty means all namespaces for namespaced resources.', 1),
    verb: str(
      'The API verb: get, list, watch, create, update, patch, delete, or a custom one; "*" means all.',
      2,
    ),
    group: str('The API group of the resource; "*" means all.', 3),
    version: str('The API version of the resource; "*" means all.', 4),
    resource: str('The resource type; "*" means all.', 5),
    subresource: str('The subresource; empty means none.', 6),
    name: str('The name of the object for get, update, patch and delete; empty means all.', 7),
    fieldSelector: { ...selectorAttributes('field'), proto: 8, protoPointer: true },
    labelSelector: { ...selectorAttributes('label'), proto: 9, protoPointer: true },
  },
};

const NON_RESOURCE_ATTRIBUTES: SchemaNode = {
  type: 'object',
  description: 'The request to check, for a path that is not an API resource.',
  properties: {
    path: str('The URL path of the request.', 1),
    verb: str('The HTTP verb, in lower case.', 2),
  },
};

const attributeFields = {
  resourceAttributes: {
    ref: 'ResourceAttributes',
    description: 'The resource request to check; exactly one of this and nonResourceAttributes.',
    proto: 1,
    protoPointer: true,
  },
  nonResourceAttributes: {
    ref: 'NonResourceAttributes',
    description: 'The non-resource request to check; exactly one of this and resourceAttributes.',
    proto: 2,
    protoPointer: true,
  },
} satisfies Record<string, SchemaNode>;

const SUBJECT_SPEC: SchemaNode = {
  type: 'object',
  description: 'Whom to check, and for what request.',
  properties: {
    ...attributeFields,
    user: str('The user to check. At least one of user and groups is needed.', 3),
    groups: strings('The groups of the user to check.', 4),
    extra: {
      type: 'object',
      description: 'Further facts about the user, as authentication would have recorded them.',
      additionalProperties: EXTRA_VALUE,
      proto: 5,
    },
    uid: str('The uid of the user to check.', 6),
  },
  proto: 2,
};

const SELF_SPEC: SchemaNode = {
  type: 'object',
  description: 'The request to check for the requesting user.',
  properties: { ...attributeFields },
  proto: 2,
};

const ACCESS_STATUS: SchemaNode = {
  type: 'object',
  description: 'Filled in by the server: the decision.',
  required: ['allowed'],
  properties: {
    allowed: {
      type: 'boolean',
      description: 'True when the action is allowed.',
      proto: 1,
      protoKeepZero: true,
    },
    denied: {
      type: 'boolean',
      description:
        'True when an authorizer denied the action outright. Both allowed and denied false means nobody had an opinion.',
      proto: 4,
    },
    reason: str('Why the action is allowed or denied, when an authorizer said.', 2),
    evaluationError: str(
      'What went wrong while deciding; a decision may still have been made, so the answer may be incomplete.',
      3,
    ),
  },
  proto: 3,
};

const RULES_STATUS: SchemaNode = {
  type: 'object',
  description: 'Filled in by the server: what the user may do in the namespace.',
  required: ['resourceRules', 'nonResourceRules', 'incomplete'],
  properties: {
    resourceRules: {
      type: 'array',
      description: 'What the user may do to resources. The order means nothing.',
      items: { ref: 'ResourceRule' },
      listType: 'atomic',
      proto: 1,
    },
    nonResourceRules: {
      type: 'array',
      description: 'What the user may do on other paths. The order means nothing.',
      items: { ref: 'NonResourceRule' },
      listType: 'atomic',
      proto: 2,
    },
    incomplete: {
      type: 'boolean',
      description:
        'True when some authorizer cannot list its rules (a webhook): the user may be able to do more.',
      proto: 3,
      protoKeepZero: true,
    },
    evaluationError: str('What went wrong while collecting the rules; the rules found are still listed.', 4),
  },
  proto: 3,
};

const RESOURCE_RULE: SchemaNode = {
  type: 'object',
  description: 'Verbs allowed on resources; "*" in any list means all.',
  required: ['verbs'],
  properties: {
    verbs: strings('The verbs allowed.', 1),
    apiGroups: strings('The API groups of the resources; "" is the core group.', 2),
    resources: strings('The resources; "<resource>/<subresource>" names a subresource.', 3),
    resourceNames: strings('The object names the rule is limited to; empty means all.', 4),
  },
};

const NON_RESOURCE_RULE: SchemaNode = {
  type: 'object',
  description: 'Verbs allowed on paths that are not resources.',
  required: ['verbs'],
  properties: {
    verbs: strings('The HTTP verbs, in lower case; "*" means all.', 1),
    nonResourceURLs: strings('The paths; a final "*" matches any path with that prefix.', 2),
  },
};

const DEFINITIONS = {
  ResourceAttributes: RESOURCE_ATTRIBUTES,
  NonResourceAttributes: NON_RESOURCE_ATTRIBUTES,
  SelectorRequirement: SELECTOR_REQUIREMENT,
};

export type AccessReviewKind = 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectAccessReview';

const DESCRIPTIONS: Record<AccessReviewKind, string> = {
  SubjectAccessReview: 'Asks whether a given user may perform an action.',
  LocalSubjectAccessReview:
    'Asks whether a given user may perform an action in one namespace; whoever may create it in the namespace may ask about that namespace only.',
  SelfSubjectAccessReview:
    'Asks whether the requesting user may perform an action (what `kubectl auth can-i` sends); anyone may ask about themselves.',
};

export function accessReviewSchema(group: string, kind: AccessReviewKind): KindSchema {
  return compileKindSchema({
    group,
    version: 'v1',
    kind,
    description: DESCRIPTIONS[kind],
    required: ['spec'],
    properties: {
      spec: kind === 'SelfSubjectAccessReview' ? SELF_SPEC : SUBJECT_SPEC,
      status: ACCESS_STATUS,
    },
    definitions: DEFINITIONS,
  });
}

export function rulesReviewSchema(group: string): KindSchema {
  return compileKindSchema({
    group,
    version: 'v1',
    kind: 'SelfSubjectRulesReview',
    description:
      'Lists what the requesting user may do in a namespace (`kubectl auth can-i --list`). The list may be incomplete and is meant for showing in a user interface, not for deciding: ask a SelfSubjectAccessReview for that.',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        description: 'Where to list the rules.',
        properties: { namespace: str('The namespace to list the rules for.', 1) },
        proto: 2,
      },
      status: RULES_STATUS,
    },
    definitions: { ResourceRule: RESOURCE_RULE, NonResourceRule: NON_RESOURCE_RULE },
  });
}
