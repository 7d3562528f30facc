// Shared definitions every kind refers to: object and list metadata and their parts.

import type { ProtoMarkers, SchemaNode } from './types.ts';

const str = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  type: 'string',
  description,
  ...wire,
});
const time = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  ref: 'Time',
  description,
  ...wire,
});
const stringMap = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  type: 'object',
  description,
  additionalProperties: { type: 'string', default: '' },
  ...wire,
});

export const META_DEFINITIONS: Record<string, SchemaNode> = {
  ObjectMeta: {
    type: 'object',
    description: 'The metadata every stored object carries, including every object users create.',
    properties: {
      name: str('The object name, unique within its namespace. It cannot be changed.', { proto: 1 }),
      generateName: str(
        'An optional prefix from which the server makes a unique name, used only when name is not given.',
        { proto: 2 },
      ),
      namespace: str('The scope inside which the name has to be unique.', { proto: 3 }),
      selfLink: str('Deprecated: a read-only field from older releases; the system no longer fills it in.', {
        proto: 4,
      }),
      uid: str('A value that identifies this object and no other, ever. Set by the system. Read-only.', {
        proto: 5,
      }),
      resourceVersion: str(
        'An opaque token for the stored version of the object, used to detect changes and for optimistic concurrency.',
        { proto: 6 },
      ),
      generation: {
        type: 'integer',
        format: 'int64',
        description: 'A counter of changes to the desired state of the object.',
        proto: 7,
      },
      creationTimestamp: time('When the object was created, by the clock of the server.', { proto: 8 }),
      deletionTimestamp: time('The RFC 3339 date and time at which the object is due to be deleted.', {
        proto: 9,
        protoPointer: true,
      }),
      deletionGracePeriodSeconds: {
        type: 'integer',
        format: 'int64',
        description: 'Seconds the object has to shut down gracefully before the system removes it.',
        proto: 10,
        protoPointer: true,
      },
      labels: stringMap('String keys and values for grouping objects, so they can be scoped and selected.', {
        proto: 11,
      }),
      annotations: stringMap(
        'Free-form string keys and values kept with the object, often written by outside tools.',
        { proto: 12 },
      ),
      ownerReferences: {
        type: 'array',
        description: 'The objects this one depends on, its owners.',
        items: { ref: 'OwnerReference' },
        listType: 'map',
        listMapKeys: ['uid'],
        patchStrategy: 'merge',
        patchMergeKey: 'uid',
        proto: 13,
      },
      finalizers: {
        type: 'array',
        description: 'Markers that must all be cleared before the object is removed from storage.',
        items: { type: 'string', default: '' },
        listType: 'set',
        patchStrategy: 'merge',
        proto: 14,
      },
      managedFields: {
        type: 'array',
        description: 'Which fields each manager and API version owns.',
        items: { ref: 'ManagedFieldsEntry' },
        listType: 'atomic',
        proto: 17,
      },
    },
  },
  OwnerReference: {
    type: 'object',
    description: 'Points at an object that owns this one, precisely enough to identify it.',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    properties: {
      apiVersion: str('The API version of the owner.', { proto: 5, protoKeepZero: true }),
      kind: str('The kind of the owner.', { proto: 1, protoKeepZero: true }),
      name: str('The name of the owner.', { proto: 3, protoKeepZero: true }),
      uid: str('The UID of the owner.', { proto: 4, protoKeepZero: true }),
      controller: {
        type: 'boolean',
        description: 'True when the owner is the controller managing this object.',
        proto: 6,
        protoPointer: true,
      },
      blockOwnerDeletion: {
        type: 'boolean',
        description:
          'When true and the owner carries the "foregroundDeletion" finalizer, the owner stays in the key-value store until this reference is gone.',
        proto: 7,
        protoPointer: true,
      },
    },
    mapType: 'atomic',
  },
  ManagedFieldsEntry: {
    type: 'object',
    description: 'One manager, the fields it owns, and the group and version those fields belong to.',
    properties: {
      manager: str('Who manages these fields.', { proto: 1 }),
      operation: str('The kind of operation that created this entry.', { proto: 2 }),
      apiVersion: str('The API version of the resource that the field set is written in.', {
        proto: 3,
      }),
      time: time('When this entry was added.', {
        proto: 4,
        protoPointer: true,
      }),
      fieldsType: str('Which format and version the field set uses.', {
        proto: 6,
      }),
      fieldsV1: {
        type: 'object',
        description: 'The field set, in the first JSON format.',
        preserveUnknownFields: true,
        proto: 7,
        protoPointer: true,
        protoType: 'FieldsV1',
      },
      subresource: str('The subresource through which the object was updated, if any.', {
        proto: 8,
      }),
    },
  },
  LabelSelector: {
    type: 'object',
    description:
      'A query over object labels; matchLabels and matchExpressions must all hold. An empty selector matches every object, a null one matches none.',
    properties: {
      matchLabels: {
        type: 'object',
        description: 'Label keys and the exact values they must have.',
        additionalProperties: { type: 'string', default: '' },
        proto: 1,
      },
      matchExpressions: {
        type: 'array',
        description: 'Conditions on labels, all of which must hold.',
        listType: 'atomic',
        items: { ref: 'LabelSelectorRequirement' },
        proto: 2,
      },
    },
    structType: 'atomic',
  },
  LabelSelectorRequirement: {
    type: 'object',
    description: 'One condition on a label: a key, an operator, and the values the operator relates it to.',
    required: ['key', 'operator'],
    properties: {
      key: {
        type: 'string',
        description: 'The label the condition is about.',
        proto: 1,
        protoKeepZero: true,
      },
      operator: {
        type: 'string',
        description: 'How the key relates to the values: In, NotIn, Exists or DoesNotExist.',
        proto: 2,
        protoKeepZero: true,
      },
      values: {
        type: 'array',
        description: 'The values the operator compares against.',
        listType: 'atomic',
        items: { type: 'string', default: '' },
        proto: 3,
      },
    },
  },
  Time: {
    type: 'string',
    format: 'date-time',
    goType: 'v1.Time',
    description: 'A point in time, written as an RFC 3339 string in JSON and YAML.',
  },
  MicroTime: {
    type: 'string',
    format: 'date-time',
    goType: 'v1.MicroTime',
    description: 'A point in time with microsecond precision.',
  },
  ListMeta: {
    type: 'object',
    description: 'The metadata of results that are not stored objects, such as lists and status responses.',
    properties: {
      selfLink: str('Deprecated: a read-only field from older releases; the system no longer fills it in.', {
        proto: 1,
      }),
      resourceVersion: str(
        'An opaque token for the version of the data in the server that this list reflects.',
        {
          proto: 2,
        },
      ),
      continue: str(
        'Set when the request asked for a limited number of items and more remain; pass it back to get the next page.',
        {
          proto: 3,
        },
      ),
      remainingItemCount: {
        type: 'integer',
        format: 'int64',
        description: 'How many further items the list has beyond this response.',
        proto: 4,
        protoPointer: true,
      },
    },
  },
};
