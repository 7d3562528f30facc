// Deployment (apps/v1): a replicated pod template rolled out by strategy. Defaults, validation and
// columns as document 3 and upstream give them; rollouts themselves are the controller manager's.

import { type FieldError, forbidden, invalid, newPath, notSupported } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import type { ProtoMarkers, SchemaNode } from '../../schema/types.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { containersColumn, imagesColumn, selectorColumn } from './columns.ts';
import { scaleView } from './scale.ts';
import { specOf, statusWritesMetadata, workloadDefinitions, workloadStrategy } from './workload.ts';

interface DeploymentSpec {
  replicas?: number;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  progressDeadlineSeconds?: number;
  strategy?: {
    type?: string;
    rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } | null;
  };
}

interface DeploymentStatus {
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
}

const int32 = (description: string, wire?: ProtoMarkers): SchemaNode => ({
  type: 'integer',
  format: 'int32',
  description,
  ...wire,
});
const STRATEGY_TYPES = ['Recreate', 'RollingUpdate'];
const PERCENT = /^[0-9]+%$/;
const PERCENT_MESSAGE =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

const schema = compileKindSchema({
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  description:
    'Keeps a set of identical pods running from one template and rolls template changes out declaratively through ReplicaSets.',
  properties: {
    spec: {
      ref: 'DeploymentSpec',
      description: 'The desired state: how many pods, from which template, and how changes are rolled out.',
      proto: 2,
    },
    status: {
      ref: 'DeploymentStatus',
      description: 'What the controller last saw of the rollout and its pods.',
      proto: 3,
    },
  },
  definitions: workloadDefinitions(() => ({
    DeploymentSpec: {
      type: 'object',
      description: 'The desired state of a Deployment.',
      required: ['selector', 'template'],
      properties: {
        replicas: int32('How many pods should run. Defaults to 1.', { proto: 1, protoPointer: true }),
        selector: {
          ref: 'LabelSelector',
          description:
            'Picks the pods this Deployment manages; the labels of the pod template must match it.',
          proto: 2,
          protoPointer: true,
        },
        template: {
          ref: 'PodTemplateSpec',
          description: 'The pod template that new pods are made from.',
          proto: 3,
        },
        strategy: {
          ref: 'DeploymentStrategy',
          description: 'How a rollout swaps existing pods for new ones.',
          patchStrategy: 'retainKeys',
          proto: 4,
        },
        minReadySeconds: int32(
          'Seconds a new pod must stay ready, with none of its containers crashing, before it counts as available. Defaults to 0.',
          { proto: 5 },
        ),
        revisionHistoryLimit: int32(
          'How many old ReplicaSets are kept so that a rollback stays possible. Defaults to 10.',
          { proto: 6, protoPointer: true },
        ),
        paused: { type: 'boolean', description: 'When true, the rollout is on hold.', proto: 7 },
        progressDeadlineSeconds: int32(
          'Seconds a rollout may go without progress before it is reported as failed. Defaults to 600s.',
          { proto: 9, protoPointer: true },
        ),
      },
    },
    DeploymentStrategy: {
      type: 'object',
      description: 'How a rollout swaps existing pods for new ones.',
      properties: {
        type: {
          type: 'string',
          description: 'The rollout method: "Recreate" or "RollingUpdate" (the default).',
          proto: 1,
        },
        rollingUpdate: {
          ref: 'RollingUpdateDeployment',
          description: 'Settings for a rolling update; set only when type is RollingUpdate.',
          proto: 2,
          protoPointer: true,
        },
      },
    },
    RollingUpdateDeployment: {
      type: 'object',
      description: 'Limits that pace a rolling update.',
      properties: {
        maxUnavailable: {
          intOrString: true,
          description:
            'How many pods may be unavailable while the update runs, as a count or a percentage of the desired pods. Defaults to 25%.',
          proto: 1,
          protoPointer: true,
        },
        maxSurge: {
          intOrString: true,
          description:
            'How many pods may exist beyond the desired count while the update runs, as a count or a percentage. Defaults to 25%.',
          proto: 2,
          protoPointer: true,
        },
      },
    },
    DeploymentStatus: {
      type: 'object',
      description: 'What the controller last saw of a Deployment.',
      properties: {
        observedGeneration: {
          type: 'integer',
          format: 'int64',
          description: 'The Deployment generation the controller last acted on.',
          proto: 1,
        },
        replicas: int32(
          'How many non-terminating pods this Deployment targets, that is pods whose labels match its selector.',
          { proto: 2 },
        ),
        updatedReplicas: int32('How many targeted non-terminating pods run the current template.', {
          proto: 3,
        }),
        readyReplicas: int32('How many targeted non-terminating pods have the Ready condition.', {
          proto: 7,
        }),
        availableReplicas: int32(
          'How many targeted non-terminating pods are available, meaning ready for at least minReadySeconds.',
          { proto: 4 },
        ),
        unavailableReplicas: int32('How many targeted pods are not available.', {
          proto: 5,
        }),
        terminatingReplicas: int32('How many targeted pods are shutting down.', {
          proto: 9,
          protoPointer: true,
        }),
        conditions: {
          type: 'array',
          description: "The most recent observations of the Deployment's state, as conditions.",
          items: { ref: 'DeploymentCondition' },
          listType: 'map',
          listMapKeys: ['type'],
          patchMergeKey: 'type',
          patchStrategy: 'merge',
          proto: 6,
        },
        collisionCount: int32(
          'How many name-hash collisions were met for this Deployment; it keeps the name of the newest ReplicaSet unique.',
          {
            proto: 8,
            protoPointer: true,
          },
        ),
      },
    },
    DeploymentCondition: {
      type: 'object',
      description: "One aspect of a Deployment's state at some moment.",
      required: ['type', 'status'],
      properties: {
        type: { type: 'string', description: 'Which condition this is.', proto: 1, protoKeepZero: true },
        status: {
          type: 'string',
          description: 'True, False or Unknown.',
          proto: 2,
          protoKeepZero: true,
        },
        lastUpdateTime: { ref: 'Time', description: 'When this condition was last refreshed.', proto: 6 },
        lastTransitionTime: {
          ref: 'Time',
          description: 'When the condition last moved from one status to another.',
          proto: 7,
        },
        reason: { type: 'string', description: 'Why the condition last changed.', proto: 4 },
        message: {
          type: 'string',
          description: 'Details of the last change, for people to read.',
          proto: 5,
        },
      },
    },
  })),
});

const deploymentSpec = (obj: ApiObject) => (obj.spec as DeploymentSpec | undefined) ?? {};

function defaults(obj: ApiObject): void {
  const spec = deploymentSpec(obj);
  spec.strategy ??= {};
  spec.strategy.type ??= 'RollingUpdate';
  if (spec.strategy.type === 'RollingUpdate') {
    spec.strategy.rollingUpdate ??= {};
    spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
    spec.strategy.rollingUpdate.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
}

/** An int-or-percent field: errors for a bad form, the value (percent as-is) otherwise. */
function intOrPercent(
  v: unknown,
  path: ReturnType<typeof newPath>,
  errs: FieldError[],
  capAt100: boolean,
): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') {
    if (v < 0) errs.push(invalid(path, v, 'must be greater than or equal to 0'));
    return v;
  }
  const s = String(v);
  if (!PERCENT.test(s)) {
    errs.push(invalid(path, s, PERCENT_MESSAGE));
    return undefined;
  }
  const n = Number(s.slice(0, -1));
  if (capAt100 && n > 100) errs.push(invalid(path, s, 'must not be greater than 100%'));
  return n;
}

function validate(obj: ApiObject): FieldError[] {
  const spec = deploymentSpec(obj);
  const path = newPath('spec');
  const errs: FieldError[] = [];
  for (const f of ['revisionHistoryLimit', 'progressDeadlineSeconds'] as const) {
    const v = spec[f];
    if (typeof v === 'number' && v < 0)
      errs.push(invalid(path.child(f), v, 'must be greater than or equal to 0'));
  }
  const minReady = specOf(obj).minReadySeconds ?? 0;
  if (typeof spec.progressDeadlineSeconds === 'number' && spec.progressDeadlineSeconds <= minReady) {
    errs.push(
      invalid(
        path.child('progressDeadlineSeconds'),
        spec.progressDeadlineSeconds,
        'must be greater than minReadySeconds',
      ),
    );
  }
  const strategy = spec.strategy ?? {};
  const spath = path.child('strategy');
  if (strategy.type !== undefined && !STRATEGY_TYPES.includes(strategy.type)) {
    errs.push(notSupported(spath.child('type'), strategy.type, STRATEGY_TYPES));
  }
  const ru = strategy.rollingUpdate;
  if (strategy.type === 'Recreate' && ru !== undefined && ru !== null) {
    errs.push(
      forbidden(spath.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"),
    );
  } else if (ru !== undefined && ru !== null) {
    const rpath = spath.child('rollingUpdate');
    const unavailable = intOrPercent(ru.maxUnavailable, rpath.child('maxUnavailable'), errs, true);
    const surge = intOrPercent(ru.maxSurge, rpath.child('maxSurge'), errs, false);
    if (unavailable === 0 && surge === 0) {
      errs.push(
        invalid(rpath.child('maxUnavailable'), ru.maxUnavailable, 'may not be 0 when `maxSurge` is 0'),
      );
    }
  }
  return errs;
}

const status = (obj: ApiObject) => (obj.status as DeploymentStatus | undefined) ?? {};

export const deploymentKind: KindDefinition = {
  resource: {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    singular: 'deployment',
    kind: 'Deployment',
    listKind: 'DeploymentList',
    shortNames: ['deploy'],
    categories: ['all'],
    namespaced: true,
    verbs: STANDARD_VERBS,
    subresources: { scale: ['get', 'patch', 'update'], status: ['get', 'patch', 'update'] },
  },
  schema,
  strategy: {
    ...workloadStrategy('deployment', defaults, validate),
    prepareForStatusUpdate: statusWritesMetadata(['annotations']),
  },
  views: { scale: scaleView },
  table: [
    NAME_COLUMN,
    {
      name: 'Ready',
      type: 'string',
      description: 'Ready pods out of the desired count.',
      cell: (obj) => `${status(obj).readyReplicas ?? 0}/${specOf(obj).replicas ?? 0}`,
    },
    {
      name: 'Up-to-date',
      type: 'integer',
      description: 'How many targeted pods run the current template.',
      cell: (obj) => status(obj).updatedReplicas ?? 0,
    },
    {
      name: 'Available',
      type: 'integer',
      description: 'How many targeted pods are available, meaning ready for at least minReadySeconds.',
      cell: (obj) => status(obj).availableReplicas ?? 0,
    },
    AGE_COLUMN,
    containersColumn,
    imagesColumn,
    selectorColumn,
  ],
};
