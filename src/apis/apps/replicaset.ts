// ReplicaSet (apps/v1): keeps a number of pods from one template running. Served now because the
// deployment controller will create them; its controller arrives with the controller manager.

import type { ApiObject } from '../../machinery/object.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import type { ProtoMarkers, SchemaNode } from '../../schema/types.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { containersColumn, imagesColumn, selectorColumn } from './columns.ts';
import { scaleView } from './scale.ts';
import { specOf, statusWritesMetadata, workloadDefinitions, workloadStrategy } from './workload.ts';

interface ReplicaSetStatus {
  replicas?: number;
  readyReplicas?: number;
}

const int32 = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  type: 'integer',
  format: 'int32',
  description,
  ...wire,
});

const schema = compileKindSchema({
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  description: 'ReplicaSet ensures that a specified number of pod replicas are running at any given time.',
  properties: {
    spec: {
      ref: 'ReplicaSetSpec',
      description: 'Spec defines the specification of the desired behavior of the ReplicaSet.',
      proto: 2,
    },
    status: {
      ref: 'ReplicaSetStatus',
      description: 'Status is the most recently observed status of the ReplicaSet.',
      proto: 3,
    },
  },
  definitions: workloadDefinitions(() => ({
    ReplicaSetSpec: {
      type: 'object',
      description: 'ReplicaSetSpec is the specification of a ReplicaSet.',
      required: ['selector'],
      properties: {
        replicas: int32('Replicas is the number of desired pods. Defaults to 1.', {
          proto: 1,
          protoPointer: true,
        }),
        minReadySeconds: int32(
          'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0.',
          { proto: 4 },
        ),
        selector: {
          ref: 'LabelSelector',
          description: 'Selector is a label query over pods that should match the replica count.',
          proto: 2,
          protoPointer: true,
        },
        template: {
          ref: 'PodTemplateSpec',
          description:
            'Template is the object that describes the pod that will be created if insufficient replicas are detected.',
          proto: 3,
        },
      },
    },
    ReplicaSetStatus: {
      type: 'object',
      description: 'ReplicaSetStatus represents the current status of a ReplicaSet.',
      required: ['replicas'],
      properties: {
        replicas: int32('Replicas is the most recently observed number of non-terminating pods.', {
          proto: 1,
          protoKeepZero: true,
        }),
        fullyLabeledReplicas: int32(
          'The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.',
          { proto: 2 },
        ),
        readyReplicas: int32(
          'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
          { proto: 4 },
        ),
        availableReplicas: int32(
          'The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.',
          { proto: 5 },
        ),
        terminatingReplicas: int32('The number of terminating pods for this replica set.', {
          proto: 7,
          protoPointer: true,
        }),
        observedGeneration: {
          type: 'integer',
          format: 'int64',
          description: 'ObservedGeneration reflects the generation of the most recently observed ReplicaSet.',
          proto: 3,
        },
        conditions: {
          type: 'array',
          description: "Represents the latest available observations of a replica set's current state.",
          items: {
            type: 'object',
            preserveUnknownFields: true,
            protoProperties: {
              type: { type: 'string', proto: 1, protoKeepZero: true },
              status: { type: 'string', proto: 2, protoKeepZero: true },
              lastTransitionTime: { ref: 'Time', proto: 3 },
              reason: { type: 'string', proto: 4 },
              message: { type: 'string', proto: 5 },
            },
          },
          listType: 'map',
          listMapKeys: ['type'],
          patchMergeKey: 'type',
          patchStrategy: 'merge',
          proto: 6,
        },
      },
    },
  })),
});

const status = (obj: ApiObject) => (obj.status as ReplicaSetStatus | undefined) ?? {};

export const replicaSetKind: KindDefinition = {
  resource: {
    group: 'apps',
    version: 'v1',
    resource: 'replicasets',
    singular: 'replicaset',
    kind: 'ReplicaSet',
    listKind: 'ReplicaSetList',
    shortNames: ['rs'],
    categories: ['all'],
    namespaced: true,
    verbs: STANDARD_VERBS,
    subresources: { scale: ['get', 'patch', 'update'], status: ['get', 'patch', 'update'] },
  },
  schema,
  strategy: {
    ...workloadStrategy(
      'replicaset',
      () => {},
      () => [],
    ),
    prepareForStatusUpdate: statusWritesMetadata(['labels', 'annotations']),
    selectableFields: { 'status.replicas': (obj) => String(status(obj).replicas ?? 0) },
  },
  views: { scale: scaleView },
  table: [
    NAME_COLUMN,
    {
      name: 'Desired',
      type: 'integer',
      description: 'Replicas is the number of desired replicas.',
      cell: (obj) => specOf(obj).replicas ?? 0,
    },
    {
      name: 'Current',
      type: 'integer',
      description: 'Replicas is the most recently observed number of replicas.',
      cell: (obj) => status(obj).replicas ?? 0,
    },
    {
      name: 'Ready',
      type: 'integer',
      description: 'The number of ready replicas for this replica set.',
      cell: (obj) => status(obj).readyReplicas ?? 0,
    },
    AGE_COLUMN,
    containersColumn,
    imagesColumn,
    selectorColumn,
  ],
};
