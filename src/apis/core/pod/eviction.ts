// pods/eviction: a policy/v1 (or v1beta1) Eviction asks for a Pod to be deleted within the limits
// of its PodDisruptionBudgets. No budgets are served, so nothing limits it: as upstream does for an
// unguarded Pod, the Pod gets the DisruptionTarget condition through its status, then is deleted
// with the Eviction's deleteOptions (gracefully, as any delete of a Pod), and the answer is a
// Success Status.

import { invalid as invalidField, newPath, notSupported } from '../../../machinery/field-errors.ts';
import { badRequest, invalid } from '../../../machinery/status.ts';
import { groupName, type NamingProfile } from '../../../naming/profile.ts';
import type { ParentDeleteOptions, SubresourceAction } from '../../../registry/subresource-action.ts';
import { compileKindSchema } from '../../../schema/compile.ts';
import type { KindSchema, SchemaNode } from '../../../schema/types.ts';
import { setPodCondition } from './conditions.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const DELETE_OPTIONS: Record<string, SchemaNode> = {
  DeleteOptions: {
    type: 'object',
    description: 'DeleteOptions may be provided when deleting an API object.',
    properties: {
      gracePeriodSeconds: {
        type: 'integer',
        format: 'int64',
        description: 'The duration in seconds before the object should be deleted.',
        proto: 1,
        protoPointer: true,
      },
      preconditions: {
        ref: 'Preconditions',
        description: 'Must be fulfilled before a deletion is carried out.',
        proto: 2,
        protoPointer: true,
      },
      orphanDependents: {
        type: 'boolean',
        description: 'Deprecated: please use the PropagationPolicy.',
        proto: 3,
        protoPointer: true,
      },
      propagationPolicy: {
        type: 'string',
        description: 'Whether and how garbage collection will be performed.',
        proto: 4,
        protoPointer: true,
      },
      dryRun: {
        type: 'array',
        items: { type: 'string', default: '' },
        description: 'When present, indicates that modifications should not be persisted.',
        listType: 'atomic',
        proto: 5,
      },
      ignoreStoreReadErrorWithClusterBreakingPotential: {
        type: 'boolean',
        description:
          'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.',
        proto: 6,
        protoPointer: true,
      },
    },
  },
  Preconditions: {
    type: 'object',
    description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
    properties: {
      uid: { type: 'string', description: 'Specifies the target UID.', proto: 1, protoPointer: true },
      resourceVersion: {
        type: 'string',
        description: 'Specifies the target ResourceVersion',
        proto: 2,
        protoPointer: true,
      },
    },
  },
};

export function evictionSchema(version: 'v1' | 'v1beta1'): KindSchema {
  return compileKindSchema({
    group: 'policy',
    version,
    kind: 'Eviction',
    description:
      'Eviction evicts a pod from its node subject to certain policies and safety constraints. This is a subresource of Pod.  A request to cause such an eviction is created by POSTing to .../pods/<pod name>/evictions.',
    properties: {
      deleteOptions: {
        ref: 'DeleteOptions',
        description: 'DeleteOptions may be provided',
        proto: 2,
        protoPointer: true,
      },
    },
    definitions: DELETE_OPTIONS,
  });
}

const POLICIES = ['Orphan', 'Background', 'Foreground'] as const;

/** The Eviction's deleteOptions as the store takes them, or a thrown Invalid DeleteOptions. */
function deleteOptionsOf(raw: unknown, dryRunQuery: boolean, metaGroup: string): ParentDeleteOptions {
  const o = isObj(raw) ? raw : {};
  const errs = [];
  const policy = o.propagationPolicy;
  if (policy !== undefined && policy !== null && !(POLICIES as readonly unknown[]).includes(policy)) {
    errs.push(
      notSupported(newPath('propagationPolicy'), policy, ['Foreground', 'Background', 'Orphan', 'nil']),
    );
  }
  if (policy !== undefined && policy !== null && typeof o.orphanDependents === 'boolean') {
    errs.push(
      invalidField(
        newPath('propagationPolicy'),
        policy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  const dryRun = Array.isArray(o.dryRun) ? o.dryRun : [];
  if (dryRun.some((v) => v !== 'All')) errs.push(notSupported(newPath('dryRun'), dryRun, ['All']));
  if (errs.length > 0) throw invalid({ group: metaGroup, kind: 'DeleteOptions' }, '', errs);
  const pre = isObj(o.preconditions) ? o.preconditions : undefined;
  const orphan = typeof o.orphanDependents === 'boolean' ? o.orphanDependents : undefined;
  return {
    dryRun: dryRunQuery || dryRun.length > 0,
    gracePeriodSeconds: typeof o.gracePeriodSeconds === 'number' ? o.gracePeriodSeconds : undefined,
    preconditions:
      pre === undefined
        ? undefined
        : {
            uid: typeof pre.uid === 'string' ? pre.uid : undefined,
            resourceVersion: typeof pre.resourceVersion === 'string' ? pre.resourceVersion : undefined,
          },
    propagationPolicy:
      typeof policy === 'string'
        ? (policy as ParentDeleteOptions['propagationPolicy'])
        : orphan === undefined
          ? undefined
          : orphan
            ? 'Orphan'
            : 'Background',
  };
}

export function evictionAction(profile: NamingProfile): SubresourceAction {
  const metaGroup = groupName(profile, 'meta');
  return {
    schema: evictionSchema('v1'),
    aliases: [evictionSchema('v1beta1')],
    async create(req) {
      const eviction = req.body;
      if (eviction.metadata?.name !== req.name) {
        throw badRequest('name in URL does not match name in Eviction object');
      }
      const options = deleteOptionsOf(eviction.deleteOptions, req.dryRun === true, metaGroup);
      if (req.updateParent === undefined || req.deleteParent === undefined) {
        throw badRequest('pods/eviction is not served here');
      }
      if (!options.dryRun) {
        await req.updateParent((pod) => {
          const pre = options.preconditions;
          if (pre?.uid !== undefined && pre.uid !== '' && pre.uid !== pod.metadata?.uid) return pod;
          setPodCondition(pod, {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'EvictionByEvictionAPI',
            message: 'Eviction API: evicting',
          });
          return pod;
        }, 'status');
      }
      // A resourceVersion precondition named the Pod before the condition was written; the
      // delete's own preconditions still guard the uid.
      const { preconditions, ...rest } = options;
      await req.deleteParent({
        ...rest,
        preconditions: preconditions?.uid === undefined ? undefined : { uid: preconditions.uid },
      });
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
    },
  };
}
