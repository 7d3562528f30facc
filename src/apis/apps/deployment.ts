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
  description: 'Deployment enables declarative updates for Pods and ReplicaSets.',
  properties: {
    spec: {
      ref: 'DeploymentSpec',
      description: 'Specification of the desired behavior of the Deployment.',
      proto: 2,
    },
    status: {
      ref: 'DeploymentStatus',
      description: 'Most recently observed status of the Deployment.',
      proto: 3,
    },
  },
  definitions: workloadDefinitions(() => ({
    DeploymentSpec: {
      type: 'object',
      description: 'DeploymentSpec is the specification of the desired behavior of the Deployment.',
      required: ['selector', 'template'],
      properties: {
        replicas: int32('Number of desired pods. Defaults to 1.', { proto: 1, protoPointer: true }),
        selector: {
          ref: 'LabelSelector',
          description: "Label selector for pods. It must match the pod template's labels.",
          proto: 2,
          protoPointer: true,
        },
        template: {
          ref: 'PodTemplateSpec',
          description: 'Template describes the pods that will be created.',
          proto: 3,
        },
        strategy: {
          ref: 'DeploymentStrategy',
          description: 'The deployment strategy to use to replace existing pods with new ones.',
          patchStrategy: 'retainKeys',
          proto: 4,
        },
        minReadySeconds: int32(
          'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0.',
          { proto: 5 },
        ),
        revisionHistoryLimit: int32(
          'The number of old ReplicaSets to retain to allow rollback. Defaults to 10.',
          { proto: 6, protoPointer: true },
        ),
        paused: { type: 'boolean', description: 'Indicates that the deployment is paused.', proto: 7 },
        progressDeadlineSeconds: int32(
          'The maximum time in seconds for a deployment to make progress before it is considered to be failed. Defaults to 600s.',
          { proto: 9, protoPointer: true },
        ),
      },
    },
    DeploymentStrategy: {
      type: 'object',
      description: 'DeploymentStrategy describes how to replace existing pods with new ones.',
      properties: {
        type: {
          type: 'string',
          description: 'Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.',
          proto: 1,
        },
        rollingUpdate: {
          ref: 'RollingUpdateDeployment',
          description:
            'Rolling update config params. Present only if DeploymentStrategyType = RollingUpdate.',
          proto: 2,
          protoPointer: true,
        },
      },
    },
    RollingUpdateDeployment: {
      type: 'object',
      description: 'Spec to control the desired behavior of rolling update.',
      properties: {
        maxUnavailable: {
          intOrString: true,
          description:
            'The maximum number of pods that can be unavailable during the update. Defaults to 25%.',
          proto: 1,
          protoPointer: true,
        },
        maxSurge: {
          intOrString: true,
          description:
            'The maximum number of pods that can be scheduled above the desired number of pods. Defaults to 25%.',
          proto: 2,
          protoPointer: true,
        },
      },
    },
    DeploymentStatus: {
      type: 'object',
      description: 'DeploymentStatus is the most recently observed status of the Deployment.',
      properties: {
        observedGeneration: {
          type: 'integer',
          format: 'int64',
          description: 'The generation observed by the deployment controller.',
          proto: 1,
        },
        replicas: int32(
          'Total number of non-terminating pods targeted by this deployment (their labels match the selector).',
          { proto: 2 },
        ),
        updatedReplicas: int32(
          'Total number of non-terminating pods targeted by this deployment that have the desired template spec.',
          { proto: 3 },
        ),
        readyReplicas: int32(
          'Total number of non-terminating pods targeted by this Deployment with a Ready Condition.',
          { proto: 7 },
        ),
        availableReplicas: int32(
          'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.',
          { proto: 4 },
        ),
        unavailableReplicas: int32('Total number of unavailable pods targeted by this deployment.', {
          proto: 5,
        }),
        terminatingReplicas: int32('Total number of terminating pods targeted by this deployment.', {
          proto: 9,
          protoPointer: true,
        }),
        conditions: {
          type: 'array',
          description: "Represents the latest available observations of a deployment's current state.",
          items: { ref: 'DeploymentCondition' },
          listType: 'map',
          listMapKeys: ['type'],
          patchMergeKey: 'type',
          patchStrategy: 'merge',
          proto: 6,
        },
        collisionCount: int32('Count of hash collisions for the Deployment.', {
          proto: 8,
          protoPointer: true,
        }),
      },
    },
    DeploymentCondition: {
      type: 'object',
      description: 'DeploymentCondition describes the state of a deployment at a certain point.',
      required: ['type', 'status'],
      properties: {
        type: { type: 'string', description: 'Type of deployment condition.', proto: 1, protoKeepZero: true },
        status: {
          type: 'string',
          description: 'Status of the condition, one of True, False, Unknown.',
          proto: 2,
          protoKeepZero: true,
        },
        lastUpdateTime: { ref: 'Time', description: 'The last time this condition was updated.', proto: 6 },
        lastTransitionTime: {
          ref: 'Time',
          description: 'Last time the condition transitioned from one status to another.',
          proto: 7,
        },
        reason: { type: 'string', description: "The reason for the condition's last transition.", proto: 4 },
        message: {
          type: 'string',
          description: 'A human readable message indicating details about the transition.',
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
      description: 'Number of the pod with ready state',
      cell: (obj) => `${status(obj).readyReplicas ?? 0}/${specOf(obj).replicas ?? 0}`,
    },
    {
      name: 'Up-to-date',
      type: 'integer',
      description:
        'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      cell: (obj) => status(obj).updatedReplicas ?? 0,
    },
    {
      name: 'Available',
      type: 'integer',
      description:
        'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
      cell: (obj) => status(obj).availableReplicas ?? 0,
    },
    AGE_COLUMN,
    containersColumn,
    imagesColumn,
    selectorColumn,
  ],
};
