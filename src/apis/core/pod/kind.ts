// Pod (core/v1): the kind itself as upstream's registry serves it. A new Pod starts Pending with its
// QoS class computed; its spec is nearly immutable (update-validation.ts); its status is written
// through /status, its node through /binding, its debugging containers through
// /ephemeralcontainers, and /eviction deletes it. Deletes are graceful: a scheduled Pod that has
// not finished is kept for its grace period, so that whoever runs it can stop it.

import { deepEqual, newPath } from '../../../machinery/field-errors.ts';
import type { ApiObject } from '../../../machinery/object.ts';
import { badRequest } from '../../../machinery/status.ts';
import { nameIsDNSSubdomain } from '../../../machinery/validation/names.ts';
import { mirrorPodAnnotation } from '../../../naming/node-agents.ts';
import type { NamingProfile } from '../../../naming/profile.ts';
import type { KindDefinition } from '../../../registry/kind.ts';
import { STANDARD_VERBS } from '../../../registry/resource.ts';
import type { Strategy } from '../../../registry/strategy.ts';
import { compileKindSchema } from '../../../schema/compile.ts';
import { NAMESPACED_DEFAULTS } from '../../strategy-defaults.ts';
import { bindingAction } from './binding.ts';
import { podColumns } from './columns.ts';
import { defaultPod } from './defaults.ts';
import { evictionAction } from './eviction.ts';
import { podQOSClass } from './qos.ts';
import { podTemplateDefinitions } from './schema.ts';
import { podStatusDefinitions } from './status-schema.ts';
import {
  validateEphemeralContainersUpdate,
  validatePodStatusUpdate,
  validatePodUpdate,
} from './update-validation.ts';
import { validatePodSpec } from './validation.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const specOf = (obj: ApiObject): Obj => (isObj(obj.spec) ? obj.spec : {});
const statusOf = (obj: ApiObject): Obj => (isObj(obj.status) ? obj.status : {});
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export const podSchema = compileKindSchema({
  group: '',
  version: 'v1',
  kind: 'Pod',
  description:
    'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
  properties: {
    spec: {
      ref: 'PodSpec',
      description: 'Specification of the desired behavior of the pod.',
      proto: 2,
    },
    status: {
      ref: 'PodStatus',
      description: 'Most recently observed status of the pod.',
      proto: 3,
    },
  },
  definitions: () => ({ ...podTemplateDefinitions(), ...podStatusDefinitions() }),
});

/** Upstream's CheckGracefulDelete: the request's period, else the Pod's; none when it never ran or is done. */
export function podGracePeriod(pod: ApiObject, requested: number | undefined): number {
  const spec = specOf(pod);
  let period =
    requested ??
    (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 0);
  if (text(spec.nodeName) === '') period = 0;
  const phase = statusOf(pod).phase;
  if (phase === 'Succeeded' || phase === 'Failed') period = 0;
  return period < 0 ? 1 : period;
}

/** Keeps what a status write leaves empty but upstream preserves: the QoS class, observed generations. */
function preserveStatus(obj: ApiObject, old: ApiObject): void {
  const status = statusOf(obj);
  const oldStatus = statusOf(old);
  obj.status = status;
  if (text(status.qosClass) === '' && oldStatus.qosClass !== undefined) status.qosClass = oldStatus.qosClass;
  if (!status.observedGeneration && oldStatus.observedGeneration !== undefined) {
    status.observedGeneration = oldStatus.observedGeneration;
  }
  const oldByType = new Map<unknown, Obj[]>();
  for (const c of Array.isArray(oldStatus.conditions) ? oldStatus.conditions : []) {
    if (!isObj(c)) continue;
    oldByType.set(c.type, [...(oldByType.get(c.type) ?? []), c]);
  }
  for (const c of Array.isArray(status.conditions) ? status.conditions : []) {
    if (!isObj(c)) continue;
    const previous = oldByType.get(c.type)?.shift();
    if (!c.observedGeneration && previous?.observedGeneration !== undefined) {
      c.observedGeneration = previous.observedGeneration;
    }
  }
}

const podStrategy = (mirrorAnnotation: string): Strategy => ({
  ...NAMESPACED_DEFAULTS,
  hasStatus: true,
  tracksGeneration: true,
  returnDeletedObject: true,
  validateName: nameIsDNSSubdomain,
  prepareForCreate(obj) {
    obj.status = { phase: 'Pending' };
  },
  applyDefaults(obj) {
    defaultPod(obj, mirrorAnnotation);
    const status = statusOf(obj);
    obj.status = status;
    // Computed once, from the defaulted spec (limits already copied into requests).
    if (text(status.qosClass) === '') status.qosClass = podQOSClass(obj.spec);
  },
  prepareForStatusUpdate: preserveStatus,
  prepareForSubresourceUpdate(subresource, obj, old) {
    if (subresource === 'binding') return obj;
    if (subresource !== 'ephemeralcontainers') throw badRequest(`pods/${subresource} cannot be written`);
    // Only the ephemeral containers come from the client; everything else stays as stored.
    const next = structuredClone(old);
    const spec = specOf(next);
    next.spec = spec;
    const wanted = specOf(obj).ephemeralContainers;
    if (wanted === undefined) delete spec.ephemeralContainers;
    else spec.ephemeralContainers = wanted;
    const managed = obj.metadata?.managedFields;
    if (managed !== undefined) next.metadata = { ...next.metadata, managedFields: managed };
    return next;
  },
  validate(obj) {
    return validatePodSpec(obj.spec, newPath('spec'));
  },
  validateUpdate(obj, old, subresource) {
    if (subresource === 'status') return validatePodStatusUpdate(obj, old);
    if (subresource === 'ephemeralcontainers') return validateEphemeralContainersUpdate(obj, old);
    if (subresource === 'binding') return [];
    return validatePodUpdate(obj, old);
  },
  specChanged(obj, old) {
    const spec = specOf(obj);
    const oldSpec = specOf(old);
    // A binding assigns the node without changing what was asked of the Pod.
    if (text(oldSpec.nodeName) === '' && text(spec.nodeName) !== '') {
      return !deepEqual({ ...spec, nodeName: undefined }, { ...oldSpec, nodeName: undefined });
    }
    return !deepEqual(spec, oldSpec);
  },
  gracefulDeletion: podGracePeriod,
  selectableFields: {
    'spec.nodeName': (pod) => text(specOf(pod).nodeName),
    // Old clients name the node field by its former name.
    'spec.host': (pod) => text(specOf(pod).nodeName),
    'spec.restartPolicy': (pod) => text(specOf(pod).restartPolicy),
    'spec.schedulerName': (pod) => text(specOf(pod).schedulerName),
    'spec.serviceAccountName': (pod) => text(specOf(pod).serviceAccountName),
    'spec.hostNetwork': (pod) => String(specOf(pod).hostNetwork === true),
    'status.phase': (pod) => text(statusOf(pod).phase),
    'status.podIP': (pod) => {
      const ips = statusOf(pod).podIPs;
      const first = Array.isArray(ips) ? ips[0] : undefined;
      return isObj(first) ? text(first.ip) : '';
    },
    // Accepted as a field label but not in upstream's field set: it reads as empty.
    'status.podIPs': () => '',
    'status.nominatedNodeName': (pod) => text(statusOf(pod).nominatedNodeName),
  },
});

export function podKind(profile: NamingProfile): KindDefinition {
  return {
    resource: {
      group: '',
      version: 'v1',
      resource: 'pods',
      singular: 'pod',
      kind: 'Pod',
      listKind: 'PodList',
      shortNames: ['po'],
      categories: ['all'],
      namespaced: true,
      verbs: STANDARD_VERBS,
      subresources: {
        binding: ['create'],
        ephemeralcontainers: ['get', 'patch', 'update'],
        eviction: ['create'],
        status: ['get', 'patch', 'update'],
      },
    },
    schema: podSchema,
    strategy: podStrategy(mirrorPodAnnotation(profile)),
    table: podColumns,
    actions: { binding: bindingAction, eviction: evictionAction(profile) },
  };
}
