// Namespace: phase Active from creation; a delete sets it Terminating and the deletion waits for
// spec.finalizers, which only the finalize sub-resource changes.

import { type FieldError, invalid, newPath } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { isQualifiedName, validateNamespaceName } from '../../machinery/validation/names.ts';
import { namespaceFinalizer } from '../../naming/finalizers.ts';
import { labelKey, type NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import type { SchemaNode } from '../../schema/types.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';
import { standardFinalizers, validateBareFinalizers } from './finalizer-names.ts';

interface NamespaceShape extends ApiObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: unknown[] };
}

const namespaceCondition: SchemaNode = {
  type: 'object',
  description: "One aspect of a namespace's state.",
  required: ['type', 'status'],
  properties: {
    type: {
      type: 'string',
      goType: 'v1.NamespaceConditionType',
      description: 'Which condition the namespace controller reports.',
      proto: 1,
      protoKeepZero: true,
    },
    status: {
      type: 'string',
      goType: 'v1.ConditionStatus',
      description: 'True, False or Unknown.',
      proto: 2,
      protoKeepZero: true,
    },
    lastTransitionTime: {
      ref: 'Time',
      description: 'When the condition last moved from one status to another.',
      proto: 4,
    },
    reason: {
      type: 'string',
      description: 'Why the condition last changed, as a single CamelCase word.',
      proto: 5,
    },
    message: {
      type: 'string',
      description: 'Details of the last change, for people to read.',
      proto: 6,
    },
  },
};

const schema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'Namespace',
  description: 'A named scope that object names are unique within. A cluster may use one namespace or many.',
  properties: {
    spec: {
      type: 'object',
      goType: 'v1.NamespaceSpec',
      description: 'The desired behavior of the namespace.',
      properties: {
        finalizers: {
          type: 'array',
          description:
            'Opaque markers; the namespace is removed from storage for good only once this list is empty.',
          items: { type: 'string', default: '', goType: 'v1.FinalizerName' },
          listType: 'atomic',
          proto: 1,
        },
      },
      proto: 2,
    },
    status: {
      type: 'object',
      goType: 'v1.NamespaceStatus',
      description: 'What is currently known about the namespace.',
      properties: {
        phase: {
          type: 'string',
          goType: 'v1.NamespacePhase',
          description: 'Where the namespace is in its life.',
          enum: ['Active', 'Terminating'],
          proto: 1,
        },
        conditions: {
          type: 'array',
          description: "The most recent observations of the namespace's state, as conditions.",
          items: { ref: 'NamespaceCondition' },
          listType: 'map',
          listMapKeys: ['type'],
          proto: 2,
        },
      },
      proto: 3,
    },
  },
  definitions: { NamespaceCondition: namespaceCondition },
});

const PHASE_PATH = newPath('status', 'Phase');

/** Upstream ties the phase to the deletion: Active until deleted, Terminating after. */
function validatePhase(ns: NamespaceShape): FieldError[] {
  const phase = ns.status?.phase ?? '';
  if (ns.metadata?.deletionTimestamp === undefined) {
    return phase === 'Active'
      ? []
      : [invalid(PHASE_PATH, phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating'
    ? []
    : [invalid(PHASE_PATH, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

/** spec.finalizers: qualified names, and a name without a domain must be a standard one. */
function validateSpecFinalizers(ns: NamespaceShape, standard: ReadonlySet<string>): FieldError[] {
  const path = newPath('spec', 'finalizers');
  const list = Array.isArray(ns.spec?.finalizers) ? ns.spec.finalizers : [];
  const errs: FieldError[] = [];
  // Per name, as upstream: the qualified-name messages first, then the standard-name rule.
  list.forEach((f, i) => {
    for (const msg of isQualifiedName(String(f))) errs.push(invalid(path.index(i), String(f), msg));
    for (const e of validateBareFinalizers([f], path, standard))
      errs.push({ ...e, field: path.index(i).toString() });
  });
  return errs;
}

export function namespaceKind(profile: NamingProfile): KindDefinition {
  const finalizer = namespaceFinalizer(profile);
  const nameLabel = labelKey(profile, 'metadata.name');
  const standard = standardFinalizers(profile);
  // Upstream labels every named namespace with its own name (a generated name is set by then).
  const labelName = (obj: ApiObject) => {
    const meta = obj.metadata;
    if (meta === undefined || typeof meta.name !== 'string' || meta.name === '') return;
    meta.labels = { ...meta.labels, [nameLabel]: meta.name };
  };
  return {
    resource: {
      group: '',
      version: 'v1',
      resource: 'namespaces',
      singular: 'namespace',
      kind: 'Namespace',
      listKind: 'NamespaceList',
      shortNames: ['ns'],
      namespaced: false,
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      subresources: { finalize: ['update'], status: ['get', 'patch', 'update'] },
    },
    schema,
    strategy: {
      ...NAMESPACED_DEFAULTS,
      namespaced: false,
      hasStatus: true,
      selectableFields: { 'status.phase': (obj) => String((obj as NamespaceShape).status?.phase ?? '') },
      validateName: validateNamespaceName,
      prepareForCreate(obj) {
        const ns = obj as NamespaceShape;
        // The system finalizer is added to whatever the client asked for; it is removed only by
        // the namespace controller, through finalize.
        const asked = Array.isArray(ns.spec?.finalizers) ? ns.spec.finalizers : [];
        ns.spec = { ...ns.spec, finalizers: asked.includes(finalizer) ? asked : [...asked, finalizer] };
        ns.status = { phase: 'Active' };
        labelName(ns);
      },
      prepareForUpdate(obj, old) {
        const ns = obj as NamespaceShape;
        ns.spec = { ...ns.spec, finalizers: (old as NamespaceShape).spec?.finalizers };
        if (ns.spec.finalizers === undefined) delete ns.spec.finalizers;
        labelName(ns);
      },
      prepareForSubresourceUpdate(_sub, obj, old) {
        const next = old as NamespaceShape;
        next.spec = { ...next.spec, finalizers: (obj as NamespaceShape).spec?.finalizers ?? [] };
        return next;
      },
      hasPendingFinalizers: (obj) => ((obj as NamespaceShape).spec?.finalizers?.length ?? 0) > 0,
      prepareForTerminate(obj) {
        const ns = obj as NamespaceShape;
        ns.status = { ...ns.status, phase: 'Terminating' };
      },
      // The schema's enum and required markers document the API only: upstream checks the phase
      // against the deletion (validateUpdate) and leaves conditions to the controller.
      validate: (obj) => validateSpecFinalizers(obj as NamespaceShape, standard),
      validateUpdate: (obj) => validatePhase(obj as NamespaceShape),
    },
    table: [
      NAME_COLUMN,
      {
        name: 'Status',
        type: 'string',
        description: 'The lifecycle phase of the namespace.',
        cell: (obj) => (obj as NamespaceShape).status?.phase ?? '',
      },
      AGE_COLUMN,
    ],
  };
}
