// ServiceAccount: an identity for processes; secrets and image pull secrets it references.

import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import type { SchemaNode } from '../../schema/types.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';

const objectReference: SchemaNode = {
  type: 'object',
  description: 'Points at another object precisely enough to read or change it.',
  properties: {
    kind: { type: 'string', description: 'The kind of the object pointed at.', proto: 1 },
    namespace: { type: 'string', description: 'The namespace of the object pointed at.', proto: 2 },
    name: { type: 'string', description: 'The name of the object pointed at.', proto: 3 },
    uid: { type: 'string', description: 'The UID of the object pointed at.', proto: 4 },
    apiVersion: { type: 'string', description: 'The API version of the object pointed at.', proto: 5 },
    resourceVersion: {
      type: 'string',
      description: 'The resourceVersion of the object meant, when the reference is to one version.',
      proto: 6,
    },
    fieldPath: {
      type: 'string',
      description:
        'When only part of the object is meant, the path to that part, written as a field access expression.',
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
    'An identity for processes in pods: a name people and other systems can refer to, a principal that authentication and authorization recognise, and the secrets that go with it.',
  properties: {
    secrets: {
      type: 'array',
      description: 'Secrets in this namespace that pods running as this service account may use.',
      items: { ref: 'ObjectReference' },
      listType: 'map',
      listMapKeys: ['name'],
      patchStrategy: 'merge',
      patchMergeKey: 'name',
      proto: 2,
    },
    imagePullSecrets: {
      type: 'array',
      description: 'Secrets in this namespace used to pull images for pods that run as this service account.',
      items: { ref: 'LocalObjectReference' },
      listType: 'atomic',
      proto: 3,
    },
    automountServiceAccountToken: {
      type: 'boolean',
      description: 'Whether pods running as this service account get an API token mounted automatically.',
      proto: 4,
      protoPointer: true,
    },
  },
  definitions: {
    ObjectReference: objectReference,
    LocalObjectReference: {
      type: 'object',
      description: 'Points at an object in the same namespace by name.',
      properties: {
        name: { type: 'string', default: '', description: 'The name of the object pointed at.', proto: 1 },
      },
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
      description: 'Secrets in this namespace that pods running as this service account may use.',
      cell: (obj) => (Array.isArray(obj.secrets) ? obj.secrets.length : 0),
    },
    AGE_COLUMN,
  ],
};
