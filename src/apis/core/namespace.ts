// Namespace: phase Active from creation; a delete sets it Terminating and the deletion waits for
// spec.finalizers, which only the finalize sub-resource changes.

import type { ApiObject } from '../../machinery/object.ts';
import { validateNamespaceName } from '../../machinery/validation/names.ts';
import { namespaceFinalizer } from '../../naming/finalizers.ts';
import { labelKey, type NamingProfile } from '../../naming/profile.ts';
import type { KindDefinition } from '../../registry/kind.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { AGE_COLUMN, NAME_COLUMN } from '../printing.ts';
import { NAMESPACED_DEFAULTS } from '../strategy-defaults.ts';

interface NamespaceShape extends ApiObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: unknown[] };
}

const schema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'Namespace',
  description: 'Namespace provides a scope for Names. Use of multiple namespaces is optional.',
  properties: {
    spec: {
      type: 'object',
      description: 'Spec defines the behavior of the Namespace.',
      properties: {
        finalizers: {
          type: 'array',
          description:
            'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.',
          items: { type: 'string', default: '' },
          listType: 'atomic',
        },
      },
    },
    status: {
      type: 'object',
      description: 'Status describes the current status of a Namespace.',
      properties: {
        phase: {
          type: 'string',
          description: 'Phase is the current lifecycle phase of the namespace.',
          enum: ['Active', 'Terminating'],
        },
        conditions: {
          type: 'array',
          description: "Represents the latest available observations of a namespace's current state.",
          items: { type: 'object', preserveUnknownFields: true },
          listType: 'map',
          listMapKeys: ['type'],
        },
      },
    },
  },
});

export function namespaceKind(profile: NamingProfile): KindDefinition {
  const finalizer = namespaceFinalizer(profile);
  const nameLabel = labelKey(profile, 'metadata.name');
  const labelName = (obj: ApiObject) => {
    const meta = obj.metadata ?? {};
    meta.labels = { ...meta.labels, [nameLabel]: String(meta.name ?? '') };
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
      validateName: validateNamespaceName,
      prepareForCreate(obj) {
        const ns = obj as NamespaceShape;
        ns.spec = { ...ns.spec, finalizers: [finalizer] };
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
      validate: (obj) => schema.validate(obj),
      validateUpdate: () => [],
    },
    table: [
      NAME_COLUMN,
      {
        name: 'Status',
        type: 'string',
        description: 'The status of the namespace',
        cell: (obj) => (obj as NamespaceShape).status?.phase ?? '',
      },
      AGE_COLUMN,
    ],
  };
}
