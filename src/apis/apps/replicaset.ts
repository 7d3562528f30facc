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
  description: 'Keeps a given number of copies of a pod running at all times.',
  properties: {
    spec: {
      ref: 'ReplicaSetSpec',
      description: 'The desired state: how many pods, which ones, and from which template.',
      proto: 2,
    },
    status: {
      ref: 'ReplicaSetStatus',
      description: 'What the controller last saw of the ReplicaSet and its pods.',
      proto: 3,
    },
  },
  definitions: workloadDefinitions(() => ({
    ReplicaSetSpec: {
      type: 'object',
      description: 'The desired state of a ReplicaSet.',
      required: ['selector'],
      properties: {
        replicas: int32('How many pods should run. Defaults to 1.', {
          proto: 1,
          protoPointer: true,
        }),
        minReadySeconds: int32(
          'Seconds a new pod must stay ready, with none of its containers crashing, before it counts as available. Defaults to 0.',
          { proto: 4 },
        ),
        selector: {
          ref: 'LabelSelector',
          description: 'Picks the pods that count toward the desired number.',
          proto: 2,
          protoPointer: true,
        },
        template: {
          ref: 'PodTemplateSpec',
          description: 'The pod template used to make new pods when too few are running.',
          proto: 3,
        },
      },
    },
    ReplicaSetStatus: {
      type: 'object',
      description: 'What the controller last saw of a ReplicaSet.',
      required: ['replicas'],
      properties: {
        replicas: int32('How many non-terminating pods were last counted.', {
          proto: 1,
          protoKeepZero: true,
        }),
        fullyLabeledReplicas: int32('How many non-terminating pods carry the labels of the pod template.', {
          proto: 2,
        }),
        readyReplicas: int32('How many targeted non-terminating pods have the Ready condition.', {
          proto: 4,
        }),
        availableReplicas: int32(
          'How many non-terminating pods are available, meaning ready for at least minReadySeconds.',
          { proto: 5 },
        ),
        terminatingReplicas: int32('How many of its pods are shutting down.', {
          proto: 7,
          protoPointer: true,
        }),
        observedGeneration: {
          type: 'integer',
          format: 'int64',
          description: 'The ReplicaSet generation the controller last acted on.',
          proto: 3,
        },
        conditions: {
          type: 'array',
          description: "The most recent observations of the ReplicaSet's state, as conditions.",
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
      description: 'How many pods should run.',
      cell: (obj) => specOf(obj).replicas ?? 0,
    },
    {
      name: 'Current',
      type: 'integer',
      description: 'How many pods were last counted.',
      cell: (obj) => status(obj).replicas ?? 0,
    },
    {
      name: 'Ready',
      type: 'integer',
      description: 'How many of its pods are ready.',
      cell: (obj) => status(obj).readyReplicas ?? 0,
    },
    AGE_COLUMN,
    containersColumn,
    imagesColumn,
    selectorColumn,
  ],
};
