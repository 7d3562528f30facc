// The scale sub-resource of workloads: an autoscaling/v1 Scale over spec.replicas, read with the
// current status count and the selector as a string (what autoscalers match pods with).

import { type FieldError, invalid, newPath } from '../../machinery/field-errors.ts';
import { labelSelectorAsMatcher } from '../../machinery/labels.ts';
import type { ApiObject } from '../../machinery/object.ts';
import type { SubresourceView } from '../../registry/kind.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { specOf, type WorkloadSpec } from './workload.ts';

export const scaleSchema = compileKindSchema({
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
  description: 'Reads or changes the size of a scalable resource.',
  properties: {
    spec: {
      ref: 'ScaleSpec',
      description: 'The size asked for.',
      proto: 2,
    },
    status: {
      ref: 'ScaleStatus',
      description: 'The size last observed. Read-only.',
      proto: 3,
    },
  },
  definitions: {
    ScaleSpec: {
      type: 'object',
      description: 'The size asked for through the scale subresource.',
      properties: {
        replicas: {
          type: 'integer',
          format: 'int32',
          description: 'How many instances the scaled object should have.',
          proto: 1,
        },
      },
    },
    ScaleStatus: {
      type: 'object',
      description: 'The size last observed through the scale subresource.',
      required: ['replicas'],
      properties: {
        replicas: {
          type: 'integer',
          format: 'int32',
          description: 'How many instances of the scaled object were actually seen.',
          proto: 1,
          protoKeepZero: true,
        },
        selector: {
          type: 'string',
          description: 'The label query, as a string, for the pods counted as instances.',
          proto: 2,
        },
      },
    },
  },
});

export const scaleView: SubresourceView = {
  schema: scaleSchema,
  read(obj: ApiObject): ApiObject {
    const spec = specOf(obj);
    const meta = obj.metadata ?? {};
    let selector = '';
    try {
      selector = labelSelectorAsMatcher(spec.selector).toString();
    } catch {
      selector = '';
    }
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: meta.name,
        namespace: meta.namespace,
        uid: meta.uid,
        resourceVersion: meta.resourceVersion,
        creationTimestamp: meta.creationTimestamp,
      },
      spec: { replicas: spec.replicas ?? 0 },
      status: {
        replicas: Number((obj.status as { replicas?: number } | undefined)?.replicas ?? 0),
        selector,
      },
    };
  },
  write(view: ApiObject, current: ApiObject): ApiObject {
    const replicas = (view.spec as { replicas?: number } | undefined)?.replicas ?? 0;
    current.spec = { ...((current.spec as WorkloadSpec | undefined) ?? {}), replicas };
    return current;
  },
  validate(view: ApiObject): FieldError[] {
    const replicas = (view.spec as { replicas?: number } | undefined)?.replicas;
    return typeof replicas === 'number' && replicas < 0
      ? [invalid(newPath('spec', 'replicas'), replicas, 'must be greater than or equal to 0')]
      : [];
  },
};
