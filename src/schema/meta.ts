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
    description:
      'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
    properties: {
      name: str('Name must be unique within a namespace. Cannot be updated.', { proto: 1 }),
      generateName: str(
        'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.',
        { proto: 2 },
      ),
      namespace: str('Namespace defines the space within which each name must be unique.', { proto: 3 }),
      selfLink: str(
        'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
        { proto: 4 },
      ),
      uid: str(
        'UID is the unique in time and space value for this object. Populated by the system. Read-only.',
        { proto: 5 },
      ),
      resourceVersion: str(
        'An opaque value that represents the internal version of this object, used for optimistic concurrency and change detection.',
        { proto: 6 },
      ),
      generation: {
        type: 'integer',
        format: 'int64',
        description: 'A sequence number representing a specific generation of the desired state.',
        proto: 7,
      },
      creationTimestamp: time(
        'CreationTimestamp is a timestamp representing the server time when this object was created.',
        { proto: 8 },
      ),
      deletionTimestamp: time(
        'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted.',
        { proto: 9, protoPointer: true },
      ),
      deletionGracePeriodSeconds: {
        type: 'integer',
        format: 'int64',
        description:
          'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system.',
        proto: 10,
        protoPointer: true,
      },
      labels: stringMap(
        'Map of string keys and values that can be used to organize and categorize (scope and select) objects.',
        { proto: 11 },
      ),
      annotations: stringMap(
        'Annotations is an unstructured key value map stored with a resource that may be set by external tools.',
        { proto: 12 },
      ),
      ownerReferences: {
        type: 'array',
        description: 'List of objects depended by this object.',
        items: { ref: 'OwnerReference' },
        listType: 'map',
        listMapKeys: ['uid'],
        patchStrategy: 'merge',
        patchMergeKey: 'uid',
        proto: 13,
      },
      finalizers: {
        type: 'array',
        description: 'Must be empty before the object is deleted from the registry.',
        items: { type: 'string', default: '' },
        listType: 'set',
        patchStrategy: 'merge',
        proto: 14,
      },
      managedFields: {
        type: 'array',
        description:
          'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
        items: { ref: 'ManagedFieldsEntry' },
        listType: 'atomic',
        proto: 17,
      },
    },
  },
  OwnerReference: {
    type: 'object',
    description: 'OwnerReference contains enough information to let you identify an owning object.',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    properties: {
      apiVersion: str('API version of the referent.', { proto: 5, protoKeepZero: true }),
      kind: str('Kind of the referent.', { proto: 1, protoKeepZero: true }),
      name: str('Name of the referent.', { proto: 3, protoKeepZero: true }),
      uid: str('UID of the referent.', { proto: 4, protoKeepZero: true }),
      controller: {
        type: 'boolean',
        description: 'If true, this reference points to the managing controller.',
        proto: 6,
        protoPointer: true,
      },
      blockOwnerDeletion: {
        type: 'boolean',
        description:
          'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.',
        proto: 7,
        protoPointer: true,
      },
    },
    mapType: 'atomic',
  },
  ManagedFieldsEntry: {
    type: 'object',
    description:
      'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
    properties: {
      manager: str('Manager is an identifier of the workflow managing these fields.', { proto: 1 }),
      operation: str(
        'Operation is the type of operation which lead to this ManagedFieldsEntry being created.',
        { proto: 2 },
      ),
      apiVersion: str('APIVersion defines the version of this resource that this field set applies to.', {
        proto: 3,
      }),
      time: time('Time is the timestamp of when the ManagedFields entry was added.', {
        proto: 4,
        protoPointer: true,
      }),
      fieldsType: str('FieldsType is the discriminator for the different fields format and version.', {
        proto: 6,
      }),
      fieldsV1: {
        type: 'object',
        description: 'FieldsV1 holds the first JSON version format.',
        preserveUnknownFields: true,
        proto: 7,
        protoPointer: true,
        protoType: 'FieldsV1',
      },
      subresource: str('Subresource is the name of the subresource used to update that object.', {
        proto: 8,
      }),
    },
  },
  LabelSelector: {
    type: 'object',
    description:
      'A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.',
    properties: {
      matchLabels: {
        type: 'object',
        description: 'matchLabels is a map of {key,value} pairs.',
        additionalProperties: { type: 'string', default: '' },
        proto: 1,
      },
      matchExpressions: {
        type: 'array',
        description: 'matchExpressions is a list of label selector requirements. The requirements are ANDed.',
        listType: 'atomic',
        items: { ref: 'LabelSelectorRequirement' },
        proto: 2,
      },
    },
    structType: 'atomic',
  },
  LabelSelectorRequirement: {
    type: 'object',
    description:
      'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
    required: ['key', 'operator'],
    properties: {
      key: {
        type: 'string',
        description: 'key is the label key that the selector applies to.',
        proto: 1,
        protoKeepZero: true,
      },
      operator: {
        type: 'string',
        description:
          "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist.",
        proto: 2,
        protoKeepZero: true,
      },
      values: {
        type: 'array',
        description: 'values is an array of string values.',
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
    description:
      'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
  },
  MicroTime: {
    type: 'string',
    format: 'date-time',
    goType: 'v1.MicroTime',
    description: 'MicroTime is version of Time with microsecond level precision.',
  },
  ListMeta: {
    type: 'object',
    description:
      'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
    properties: {
      selfLink: str(
        'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
        { proto: 1 },
      ),
      resourceVersion: str("String that identifies the server's internal version of this object.", {
        proto: 2,
      }),
      continue: str('continue may be set if the user set a limit on the number of items returned.', {
        proto: 3,
      }),
      remainingItemCount: {
        type: 'integer',
        format: 'int64',
        description:
          'The number of subsequent items in the list which are not included in this list response.',
        proto: 4,
        protoPointer: true,
      },
    },
  },
};
