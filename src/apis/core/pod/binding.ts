// pods/binding: a scheduler posts a core/v1 Binding naming a Node, and the Pod is assigned to it:
// spec.nodeName set and the PodScheduled condition True, in one write of the stored Pod. As
// upstream's BindingREST: the Binding's name is the Pod's, its target a Node, a Pod already
// assigned (or being deleted, or still gated) is a Conflict, and the answer is a Success Status.

import { type FieldError, newPath, notSupported, required } from '../../../machinery/field-errors.ts';
import type { ApiObject } from '../../../machinery/object.ts';
import { badRequest, conflict, invalid } from '../../../machinery/status.ts';
import type { SubresourceAction } from '../../../registry/subresource-action.ts';
import { compileKindSchema } from '../../../schema/compile.ts';
import { setPodCondition } from './conditions.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const PODS = { group: '', resource: 'pods' };

export const bindingSchema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'Binding',
  description:
    'Binding ties one object to another; for example, a pod is bound to a node by a scheduler. Deprecated in 1.7, please use the bindings subresource of pods instead.',
  required: ['target'],
  properties: {
    target: {
      ref: 'ObjectReference',
      description: 'The target object that you want to bind to the standard object.',
      proto: 2,
    },
  },
  definitions: {
    ObjectReference: {
      type: 'object',
      description:
        'ObjectReference contains enough information to let you inspect or modify the referred object.',
      structType: 'atomic',
      properties: {
        kind: { type: 'string', description: 'Kind of the referent.', proto: 1 },
        namespace: { type: 'string', description: 'Namespace of the referent.', proto: 2 },
        name: { type: 'string', description: 'Name of the referent.', proto: 3 },
        uid: { type: 'string', description: 'UID of the referent.', proto: 4 },
        apiVersion: { type: 'string', description: 'API version of the referent.', proto: 5 },
        resourceVersion: {
          type: 'string',
          description: 'Specific resourceVersion to which this reference is made, if any.',
          proto: 6,
        },
        fieldPath: {
          type: 'string',
          description:
            'If referring to a piece of an object instead of an entire object, the field it refers to.',
          proto: 7,
        },
      },
    },
  },
});

function validateBinding(target: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const kind = typeof target.kind === 'string' ? target.kind : '';
  if (kind !== '' && kind !== 'Node')
    errs.push(notSupported(newPath('target', 'kind'), kind, ['Node', '<empty>']));
  if (typeof target.name !== 'string' || target.name === '')
    errs.push(required(newPath('target', 'name'), ''));
  return errs;
}

/** The Pod bound to `node`: what the binding writes, or a thrown Conflict. */
function bind(pod: ApiObject, node: string, binding: ApiObject): ApiObject {
  const name = String(pod.metadata?.name ?? '');
  const meta = pod.metadata ?? {};
  const spec = isObj(pod.spec) ? pod.spec : {};
  if (meta.deletionTimestamp !== undefined) {
    throw conflict(PODS, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  }
  const uid = binding.metadata?.uid;
  if (uid !== undefined && uid !== '' && uid !== meta.uid) {
    throw conflict(
      PODS,
      name,
      `the UID in the binding (${uid}) does not match the UID in record (${meta.uid}). The object might have been deleted and then recreated`,
    );
  }
  const rv = binding.metadata?.resourceVersion;
  if (rv !== undefined && rv !== '' && rv !== meta.resourceVersion) {
    throw conflict(
      PODS,
      name,
      `the ResourceVersion in the binding (${rv}) does not match the ResourceVersion in record (${meta.resourceVersion}). The object might have been modified`,
    );
  }
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') {
    throw conflict(PODS, name, `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
  }
  if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) {
    throw conflict(PODS, name, `pod ${name} has non-empty .spec.schedulingGates`);
  }
  spec.nodeName = node;
  pod.spec = spec;
  const annotations = binding.metadata?.annotations;
  if (annotations !== undefined) meta.annotations = { ...meta.annotations, ...annotations };
  pod.metadata = meta;
  setPodCondition(pod, { type: 'PodScheduled', status: 'True' });
  return pod;
}

export const bindingAction: SubresourceAction = {
  schema: bindingSchema,
  async create(req) {
    const binding = req.body;
    if (binding.metadata?.name !== req.name) {
      throw badRequest('name in URL does not match name in Binding object');
    }
    const target = isObj(binding.target) ? binding.target : {};
    const errs = validateBinding(target);
    // Upstream answers these as an internal error; a client's mistake is a 422 here.
    if (errs.length > 0) throw invalid({ group: '', kind: 'Binding' }, req.name, errs);
    if (req.updateParent === undefined) throw badRequest('pods/binding is not served here');
    await req.updateParent((pod) => bind(pod, String(target.name), binding), 'binding', {
      dryRun: req.dryRun,
    });
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
  },
};
