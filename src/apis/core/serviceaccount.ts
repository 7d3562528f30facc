// ServiceAccount: an identity for processes; secrets and image pull secrets it references.

import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import type { SchemaNode } from '../../schema/types.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';

const objectReference: SchemaNode = {
  type: 'object',
  description:
    'ObjectReference contains enough information to let you inspect or modify the referred object.',
  properties: {
    kind: { type: 'string', description: 'Kind of the referent.', proto: 1 },
    namespace: { type: 'string', description: 'Namespace of the referent.', proto: 2 },
    name: { type: 'string', description: 'Name of the referent.', proto: 3 },
    uid: { type: 'string', description: 'UID of the referent.', proto: 4 },
    apiVersion: { type: 'string', description: 'API version of the referent.', proto: 5 },
    resourceVersion: {
      type: 'string',
      description: 'Specific resourceVersion to which this reference is made, if any.',
      proto: 6,
    },
    fieldPath: {
      type: 'string',
      description:
        'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.',
      proto: 7,
    },
  },
  structType: 'atomic',
};

const schema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  description:
    'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets',
  properties: {
    secrets: {
      type: 'array',
      description:
        'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      items: { ref: 'ObjectReference' },
      listType: 'map',
      listMapKeys: ['name'],
      patchStrategy: 'merge',
      patchMergeKey: 'name',
      proto: 2,
    },
    imagePullSecrets: {
      type: 'array',
      description:
        'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount.',
      items: { ref: 'LocalObjectReference' },
      listType: 'atomic',
      proto: 3,
    },
    automountServiceAccountToken: {
      type: 'boolean',
      description:
        'AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.',
      proto: 4,
      protoPointer: true,
    },
  },
  definitions: {
    ObjectReference: objectReference,
    LocalObjectReference: {
      type: 'object',
      description:
        'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
      properties: { name: { type: 'string', default: '', description: 'Name of the referent.', proto: 1 } },
      structType: 'atomic',
    },
  },
});

export const serviceAccountKind: KindDefinition = {
  resource: {
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    singular: 'serviceaccount',
    kind: 'ServiceAccount',
    listKind: 'ServiceAccountList',
    shortNames: ['sa'],
    namespaced: true,
    verbs: STANDARD_VERBS,
    subresources: {},
  },
  schema,
  strategy: { ...NAMESPACED_DEFAULTS, validate: (obj) => schema.validate(obj), validateUpdate: () => [] },
  table: [
    NAME_COLUMN,
    {
      name: 'Secrets',
      type: 'string',
      description:
        'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      cell: (obj) => (Array.isArray(obj.secrets) ? obj.secrets.length : 0),
    },
    AGE_COLUMN,
  ],
};
