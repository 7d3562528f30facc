// NodeRestriction: what a node agent (system:node:<name> in system:nodes) may write, narrowing
// what the Node authorizer allowed without seeing the object. Pods: only mirror Pods bound to
// itself and owned by its Node, naming nothing they could read through the graph; deletions,
// evictions and status updates only of Pods bound to it (no label or claim changes through
// status). Nodes: only its own, without a config source, without changing taints, and with no
// label outside the node-agent set (never the node-restriction domain). Leases and CSINodes: its
// own name only. Tokens: only bound to a Pod on this node. Claims' status: status fields only.
// Refusals are 403 Forbidden with upstream's messages; a Pod or Node it must look up and cannot
// find is upstream's lister NotFound. Other users pass untouched.

import { goQuote } from '../machinery/field-errors.ts';
import { nodeIdentity } from '../machinery/node-identity.ts';
import {
  podConfigMapNames,
  podReferencesTrustBundles,
  podSecretNames,
  rec,
  str,
} from '../machinery/pod-references.ts';
import { type ApiError, forbidden, notFound } from '../machinery/status.ts';
import { mirrorPodAnnotation, nodeLeaseNamespace } from '../naming/node-agents.ts';
import { groupName, type NamingProfile } from '../naming/profile.ts';
import { forbiddenNodeLabels, semanticEqual } from './node-restriction-rules.ts';
import type { AdmissionAttributes, ValidatingPlugin } from './types.ts';

type Obj = Record<string, unknown>;

/** Reads current objects (the server's watch cache); undefined when there is none. */
export interface NodeRestrictionObjects {
  get(
    group: string,
    version: string,
    resource: string,
    namespace: string,
    name: string,
  ): Promise<Obj | undefined>;
}

const refuse = (a: AdmissionAttributes, why: string): ApiError =>
  forbidden({ group: a.group, resource: a.resource }, a.name, why);

export function nodeRestriction(objects: NodeRestrictionObjects, profile: NamingProfile): ValidatingPlugin {
  const mirror = mirrorPodAnnotation(profile);
  const leaseNamespace = nodeLeaseNamespace(profile);
  const coordination = groupName(profile, 'coordination');
  const storage = groupName(profile, 'storage');
  const resourceGroup = groupName(profile, 'resource');

  /** A Pod as upstream's lister finds it: its NotFound names the singular `pod`. */
  async function pod(namespace: string, name: string): Promise<Obj> {
    const p = await objects.get('', 'v1', 'pods', namespace, name);
    if (p === undefined) throw notFound({ group: '', resource: 'pod' }, name);
    return p;
  }

  async function podCreate(node: string, a: AdmissionAttributes): Promise<void> {
    const p: Obj = a.object ?? {};
    const meta = rec(p.metadata);
    const spec = rec(p.spec) ?? {};
    const annotations = rec(meta?.annotations);
    if (annotations === undefined || !Object.hasOwn(annotations, mirror)) {
      throw refuse(
        a,
        `pod does not have ${goQuote(mirror)} annotation, node ${goQuote(node)} can only create mirror pods`,
      );
    }
    if (str(spec.nodeName) !== node) {
      throw refuse(a, `node ${goQuote(node)} can only create pods with spec.nodeName set to itself`);
    }
    const owners = Array.isArray(meta?.ownerReferences) ? meta.ownerReferences : [];
    if (owners.length > 1) {
      throw refuse(
        a,
        `node ${goQuote(node)} can only create pods with a single owner reference set to itself`,
      );
    }
    if (owners.length === 0) {
      throw refuse(a, `node ${goQuote(node)} can only create pods with an owner reference set to itself`);
    }
    const owner = rec(owners[0]) ?? {};
    if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) {
      throw refuse(a, `node ${goQuote(node)} can only create pods with an owner reference set to itself`);
    }
    if (owner.controller !== true) {
      throw refuse(
        a,
        `node ${goQuote(node)} can only create pods with a controller owner reference set to itself`,
      );
    }
    if (owner.blockOwnerDeletion === true) {
      throw refuse(a, `node ${goQuote(node)} must not set blockOwnerDeletion on an owner reference`);
    }
    const nodeObj = await objects.get('', 'v1', 'nodes', '', node);
    if (nodeObj === undefined) throw notFound({ group: '', resource: 'node' }, node);
    const uid = str(rec(nodeObj.metadata)?.uid);
    if (str(owner.uid) !== uid) {
      throw refuse(a, `node ${node} UID mismatch: expected ${str(owner.uid)} got ${uid}`);
    }
    // A node must not grant itself reads by making a Pod that names objects.
    if (str(spec.serviceAccountName) !== '') {
      throw refuse(a, `node ${goQuote(node)} can not create pods that reference a service account`);
    }
    if (podSecretNames(p).size > 0) {
      throw refuse(a, `node ${goQuote(node)} can not create pods that reference secrets`);
    }
    if (podConfigMapNames(p).size > 0) {
      throw refuse(a, `node ${goQuote(node)} can not create pods that reference configmaps`);
    }
    if (podReferencesTrustBundles(p)) {
      throw refuse(a, `node ${goQuote(node)} can not create pods that reference clustertrustbundles`);
    }
    const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
    if (volumes.some((v) => rec(rec(v)?.persistentVolumeClaim) !== undefined)) {
      throw refuse(a, `node ${goQuote(node)} can not create pods that reference persistentvolumeclaims`);
    }
  }

  async function pods(node: string, a: AdmissionAttributes): Promise<void> {
    switch (a.subresource) {
      case '':
        if (a.operation === 'CREATE') return podCreate(node, a);
        if (a.operation === 'DELETE') {
          const existing = a.oldObject ?? (await pod(a.namespace, a.name));
          if (str(rec(existing.spec)?.nodeName) !== node) {
            throw refuse(a, `node ${goQuote(node)} can only delete pods with spec.nodeName set to itself`);
          }
          return;
        }
        throw refuse(
          a,
          `unexpected operation ${goQuote(a.operation)}, node ${goQuote(node)} can only create and delete mirror pods`,
        );
      case 'status': {
        if (a.operation !== 'UPDATE') throw refuse(a, `unexpected operation ${goQuote(a.operation)}`);
        const old: Obj = a.oldObject ?? {};
        const next: Obj = a.object ?? {};
        if (str(rec(old.spec)?.nodeName) !== node) {
          throw refuse(
            a,
            `node ${goQuote(node)} can only update pod status for pods with spec.nodeName set to itself`,
          );
        }
        if (!semanticEqual(rec(old.metadata)?.labels, rec(next.metadata)?.labels)) {
          throw refuse(a, `node ${goQuote(node)} cannot update labels through pod status`);
        }
        if (!claimStatusesEqual(old, next)) {
          throw refuse(a, `node ${goQuote(node)} cannot update resource claim statues`);
        }
        return;
      }
      case 'eviction': {
        if (a.operation !== 'CREATE') throw refuse(a, `unexpected operation ${a.operation}`);
        const name = a.name !== '' ? a.name : str(rec(a.object?.metadata)?.name);
        if (name === '') throw refuse(a, 'could not determine pod from request data');
        const existing = await pod(a.namespace, name);
        if (str(rec(existing.spec)?.nodeName) !== node) {
          throw refuse(a, `node ${node} can only evict pods with spec.nodeName set to itself`);
        }
        return;
      }
      default:
        throw refuse(
          a,
          `unexpected pod subresource ${goQuote(a.subresource)}, only 'status' and 'eviction' are allowed`,
        );
    }
  }

  function nodes(node: string, a: AdmissionAttributes): void {
    if (a.name !== node)
      throw refuse(a, `node ${goQuote(node)} is not allowed to modify node ${goQuote(a.name)}`);
    const next: Obj = a.object ?? {};
    const spec = rec(next.spec);
    const labels = rec(rec(next.metadata)?.labels);
    if (a.operation === 'CREATE') {
      if (spec?.configSource !== undefined && spec.configSource !== null) {
        throw refuse(a, `node ${goQuote(node)} is not allowed to create pods with a non-nil configSource`);
      }
      const bad = forbiddenNodeLabels(profile, labels, undefined);
      if (bad.length > 0) {
        throw refuse(
          a,
          `node ${goQuote(node)} is not allowed to set the following labels: ${bad.join(', ')}`,
        );
      }
    } else if (a.operation === 'UPDATE') {
      const old: Obj = a.oldObject ?? {};
      const oldSpec = rec(old.spec);
      if (
        spec?.configSource !== undefined &&
        spec.configSource !== null &&
        !semanticEqual(spec.configSource, oldSpec?.configSource)
      ) {
        throw refuse(
          a,
          `node ${goQuote(node)} is not allowed to update configSource to a new non-nil configSource`,
        );
      }
      if (!semanticEqual(spec?.taints, oldSpec?.taints)) {
        throw refuse(a, `node ${goQuote(node)} is not allowed to modify taints`);
      }
      const bad = forbiddenNodeLabels(profile, labels, rec(rec(old.metadata)?.labels));
      if (bad.length > 0) throw refuse(a, `is not allowed to modify labels: ${bad.join(', ')}`);
    }
  }

  function claimStatus(node: string, a: AdmissionAttributes): void {
    if (a.subresource !== 'status') throw refuse(a, 'may only update PVC status');
    if (a.operation !== 'UPDATE') throw refuse(a, `unexpected operation ${goQuote(a.operation)}`);
    const changed = changedOutsideClaimStatus(a.oldObject ?? {}, a.object ?? {});
    if (changed.length > 0) {
      throw refuse(
        a,
        `node ${goQuote(node)} is not allowed to update fields other than status.quantity and status.conditions: ${changed.join(', ')}`,
      );
    }
  }

  async function token(node: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    const ref = rec(rec(a.object?.spec)?.boundObjectRef);
    if (ref === undefined || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || str(ref.name) === '') {
      throw refuse(a, 'node requested token not bound to a pod');
    }
    if (str(ref.uid) === '') throw refuse(a, 'node requested token with a pod binding without a uid');
    const p = await pod(a.namespace, str(ref.name));
    if (str(ref.uid) !== str(rec(p.metadata)?.uid)) {
      throw refuse(
        a,
        `the UID in the bound object reference (${str(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    if (str(rec(p.spec)?.nodeName) !== node) {
      throw refuse(a, 'node requested token bound to a pod scheduled on a different node');
    }
  }

  function lease(node: string, a: AdmissionAttributes): void {
    if (a.namespace !== leaseNamespace) {
      throw refuse(a, `can only access leases in the ${goQuote(leaseNamespace)} system namespace`);
    }
    const name = a.operation === 'CREATE' ? str(rec(a.object?.metadata)?.name) : a.name;
    if (name !== node)
      throw refuse(a, 'can only access node lease with the same name as the requesting node');
  }

  function csiNode(node: string, a: AdmissionAttributes): void {
    const name = a.operation === 'CREATE' ? str(rec(a.object?.metadata)?.name) : a.name;
    if (name !== node) throw refuse(a, 'can only access CSINode with the same name as the requesting node');
  }

  function resourceSlice(node: string, a: AdmissionAttributes): void {
    if (a.operation === 'CREATE' && str(rec(a.object?.spec)?.nodeName) !== node) {
      throw refuse(a, 'can only create ResourceSlice with the same NodeName as the requesting node');
    }
    if (a.operation === 'DELETE' && str(rec(a.oldObject?.spec)?.nodeName) !== node) {
      throw refuse(a, 'can only delete ResourceSlice with the same NodeName as the requesting node');
    }
  }

  return {
    name: 'NodeRestriction',
    async validate(a: AdmissionAttributes): Promise<void> {
      if (a.operation === 'CONNECT') return;
      const node = nodeIdentity(a.user);
      if (node === undefined) return;
      if (node === '') {
        throw refuse(a, `could not determine node from user ${goQuote(a.user?.username ?? '')}`);
      }
      switch (`${a.group}/${a.resource}`) {
        case '/pods':
          return pods(node, a);
        case '/nodes':
          return nodes(node, a);
        case '/persistentvolumeclaims':
          return claimStatus(node, a);
        case '/serviceaccounts':
          return token(node, a);
        case `${coordination}/leases`:
          return lease(node, a);
        case `${storage}/csinodes`:
          return csiNode(node, a);
        case `${resourceGroup}/resourceslices`:
          return resourceSlice(node, a);
      }
    },
  };
}

function claimStatusesEqual(a: Obj, b: Obj): boolean {
  const list = (o: Obj) => {
    const statuses = rec(o.status)?.resourceClaimStatuses;
    return (Array.isArray(statuses) ? statuses : []).map((s) => [
      rec(s)?.name,
      rec(s)?.resourceClaimName ?? null,
    ]);
  };
  return JSON.stringify(list(a)) === JSON.stringify(list(b));
}

/** Top-level paths a node changed in a claim beyond the status fields it reports. */
function changedOutsideClaimStatus(old: Obj, next: Obj): string[] {
  const strip = (o: Obj): Obj => {
    const meta = { ...(rec(o.metadata) ?? {}) };
    delete meta.resourceVersion;
    delete meta.managedFields;
    const status = { ...(rec(o.status) ?? {}) };
    for (const f of ['capacity', 'conditions', 'allocatedResourceStatuses', 'allocatedResources'])
      delete status[f];
    return { ...o, metadata: meta, status };
  };
  const a = strip(old);
  const b = strip(next);
  const out: string[] = [];
  for (const top of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const av = rec(a[top]);
    const bv = rec(b[top]);
    if (av !== undefined && bv !== undefined) {
      for (const k of new Set([...Object.keys(av), ...Object.keys(bv)])) {
        if (!semanticEqual(av[k], bv[k])) out.push(`${top}.${k}`);
      }
    } else if (!semanticEqual(a[top], b[top])) out.push(top);
  }
  return out.sort();
}
