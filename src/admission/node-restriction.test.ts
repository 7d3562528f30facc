// NodeRestriction's cases: mirror Pods only, bound to and owned by the node and naming nothing;
// deletes, evictions and status updates of the node's own Pods only; its own Node without taint,
// config source or reserved-label changes; its own Lease and CSINode; tokens bound to its Pods;
// other users untouched. Every refusal is 403 with upstream's message.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../auth/authn/types.ts';
import type { ApiError } from '../machinery/status.ts';
import {
  mirrorPodAnnotation,
  nodeLeaseNamespace,
  nodeRestrictionLabelDomain,
} from '../naming/node-agents.ts';
import { groupName, labelKey, namingProfile } from '../naming/profile.ts';
import { nodeRestriction } from './node-restriction.ts';
import type { AdmissionAttributes } from './types.ts';

const profile = namingProfile('spec');
const MIRROR = mirrorPodAnnotation(profile);
const n1: UserInfo = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

const stored: Record<string, Record<string, unknown>> = {
  'pods/ns/p1': { metadata: { namespace: 'ns', name: 'p1', uid: 'u-p1' }, spec: { nodeName: 'n1' } },
  'pods/ns/p2': { metadata: { namespace: 'ns', name: 'p2', uid: 'u-p2' }, spec: { nodeName: 'n2' } },
  'nodes//n1': { metadata: { name: 'n1', uid: 'u-n1' } },
};
const plugin = nodeRestriction(
  { get: async (_g, _v, resource, ns, name) => stored[`${resource}/${ns}/${name}`] },
  profile,
);

function attrs(over: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    resource: 'pods',
    subresource: '',
    kind: 'Pod',
    namespace: 'ns',
    name: '',
    namespaced: true,
    user: n1,
    dryRun: false,
    ...over,
  };
}

async function refused(a: AdmissionAttributes, message: string, code = 403): Promise<void> {
  await assert.rejects(plugin.validate(a), (err: ApiError) => {
    assert.equal(err.status.code, code);
    assert.equal(err.status.message, message);
    return true;
  });
}

const mirrorPod = (over: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) => ({
  metadata: {
    name: 'm',
    namespace: 'ns',
    annotations: { [MIRROR]: 'hash' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u-n1', controller: true }],
    ...over,
  },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], ...spec },
});

describe('NodeRestriction: Pods', () => {
  it('admits a mirror Pod bound to and owned by the node', async () => {
    await plugin.validate(attrs({ name: 'm', object: mirrorPod() }));
  });

  it('refuses Pods that are no mirror, bound elsewhere, badly owned or naming objects', async () => {
    await refused(
      attrs({ name: 'm', object: mirrorPod({ annotations: {} }) }),
      `pods "m" is forbidden: pod does not have "${MIRROR}" annotation, node "n1" can only create mirror pods`,
    );
    await refused(
      attrs({ name: 'm', object: mirrorPod({}, { nodeName: 'n2' }) }),
      'pods "m" is forbidden: node "n1" can only create pods with spec.nodeName set to itself',
    );
    await refused(
      attrs({ name: 'm', object: mirrorPod({ ownerReferences: [] }) }),
      'pods "m" is forbidden: node "n1" can only create pods with an owner reference set to itself',
    );
    await refused(
      attrs({
        name: 'm',
        object: mirrorPod({ ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u-n1' }] }),
      }),
      'pods "m" is forbidden: node "n1" can only create pods with a controller owner reference set to itself',
    );
    await refused(
      attrs({
        name: 'm',
        object: mirrorPod({
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'stale', controller: true }],
        }),
      }),
      'pods "m" is forbidden: node n1 UID mismatch: expected stale got u-n1',
    );
    await refused(
      attrs({ name: 'm', object: mirrorPod({}, { serviceAccountName: 'default' }) }),
      'pods "m" is forbidden: node "n1" can not create pods that reference a service account',
    );
    await refused(
      attrs({ name: 'm', object: mirrorPod({}, { volumes: [{ name: 'v', secret: { secretName: 's' } }] }) }),
      'pods "m" is forbidden: node "n1" can not create pods that reference secrets',
    );
    await refused(
      attrs({ name: 'm', object: mirrorPod({}, { volumes: [{ name: 'v', configMap: { name: 'c' } }] }) }),
      'pods "m" is forbidden: node "n1" can not create pods that reference configmaps',
    );
    await refused(
      attrs({
        name: 'm',
        object: mirrorPod({}, { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] }),
      }),
      'pods "m" is forbidden: node "n1" can not create pods that reference persistentvolumeclaims',
    );
  });

  it('lets a node delete only its own Pods, and never update them', async () => {
    await plugin.validate(attrs({ operation: 'DELETE', name: 'p1' }));
    await refused(
      attrs({ operation: 'DELETE', name: 'p2' }),
      'pods "p2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
    );
    await refused(attrs({ operation: 'DELETE', name: 'gone' }), 'pod "gone" not found', 404);
    await refused(
      attrs({
        operation: 'UPDATE',
        name: 'p1',
        object: stored['pods/ns/p1'],
        oldObject: stored['pods/ns/p1'],
      }),
      'pods "p1" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods',
    );
  });

  it('lets a node update the status of its own Pods, without touching labels', async () => {
    const old: Record<string, unknown> = { ...stored['pods/ns/p1'], status: {} };
    await plugin.validate(
      attrs({
        operation: 'UPDATE',
        name: 'p1',
        subresource: 'status',
        oldObject: old,
        object: { ...old, status: { phase: 'Running' } },
      }),
    );
    await refused(
      attrs({
        operation: 'UPDATE',
        name: 'p2',
        subresource: 'status',
        oldObject: stored['pods/ns/p2'],
        object: stored['pods/ns/p2'],
      }),
      'pods "p2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
    );
    await refused(
      attrs({
        operation: 'UPDATE',
        name: 'p1',
        subresource: 'status',
        oldObject: old,
        object: { ...old, metadata: { ...(old.metadata as object), labels: { a: 'b' } } },
      }),
      'pods "p1" is forbidden: node "n1" cannot update labels through pod status',
    );
  });

  it('lets a node evict only its own Pods, and refuses other subresources', async () => {
    await plugin.validate(
      attrs({ subresource: 'eviction', name: 'p1', object: { metadata: { name: 'p1' } } }),
    );
    await refused(
      attrs({ subresource: 'eviction', name: 'p2', object: { metadata: { name: 'p2' } } }),
      'pods "p2" is forbidden: node n1 can only evict pods with spec.nodeName set to itself',
    );
    await refused(
      attrs({ subresource: 'binding', name: 'p1', object: {} }),
      `pods "p1" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
    );
  });
});

describe('NodeRestriction: Nodes', () => {
  const node = (labels: Record<string, string> = {}, spec: Record<string, unknown> = {}) => ({
    metadata: { name: 'n1', labels },
    spec,
  });
  const nodeAttrs = (over: Partial<AdmissionAttributes>) =>
    attrs({ resource: 'nodes', kind: 'Node', namespace: '', namespaced: false, name: 'n1', ...over });
  const restricted = `${nodeRestrictionLabelDomain(profile)}/pool`;

  it('lets a node create and update only itself', async () => {
    await plugin.validate(nodeAttrs({ object: node({ [labelKey(profile, 'hostname')]: 'n1', team: 'x' }) }));
    await refused(
      nodeAttrs({
        name: 'n2',
        operation: 'UPDATE',
        subresource: 'status',
        object: node(),
        oldObject: node(),
      }),
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    );
    await plugin.validate(
      nodeAttrs({ operation: 'UPDATE', subresource: 'status', object: node(), oldObject: node() }),
    );
  });

  it('refuses reserved labels, taint changes and a config source', async () => {
    const reserved = labelKey(profile, 'made-up');
    await refused(
      nodeAttrs({
        object: node({ [restricted]: 'a', [reserved]: 'b', [`node.${profile.labelDomain}/ok`]: 'c' }),
      }),
      `nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: ${[restricted, reserved].sort().join(', ')}`,
    );
    await refused(
      nodeAttrs({ operation: 'UPDATE', object: node({ [restricted]: 'a' }), oldObject: node() }),
      `nodes "n1" is forbidden: is not allowed to modify labels: ${restricted}`,
    );
    await refused(
      nodeAttrs({
        operation: 'UPDATE',
        object: node({}, { taints: [] }),
        oldObject: node({}, { taints: [{ key: 'k', effect: 'NoSchedule' }] }),
      }),
      'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
    );
    // Absent and empty taints are the same.
    await plugin.validate(
      nodeAttrs({ operation: 'UPDATE', object: node({}, { taints: [] }), oldObject: node() }),
    );
    await refused(
      nodeAttrs({ object: node({}, { configSource: { configMap: {} } }) }),
      'nodes "n1" is forbidden: node "n1" is not allowed to create pods with a non-nil configSource',
    );
  });
});

describe('NodeRestriction: Leases, CSINodes, tokens and other users', () => {
  const coordination = groupName(profile, 'coordination');
  const leaseNs = nodeLeaseNamespace(profile);

  it('lets a node write only its own Lease in the node-lease namespace', async () => {
    const lease = (name: string) => ({ metadata: { name, namespace: leaseNs } });
    const leaseAttrs = (over: Partial<AdmissionAttributes>) =>
      attrs({ group: coordination, resource: 'leases', kind: 'Lease', namespace: leaseNs, ...over });
    await plugin.validate(leaseAttrs({ name: 'n1', object: lease('n1') }));
    await refused(
      leaseAttrs({ name: 'n2', object: lease('n2') }),
      `leases.${coordination} "n2" is forbidden: can only access node lease with the same name as the requesting node`,
    );
    await refused(
      leaseAttrs({ operation: 'UPDATE', name: 'n2', object: lease('n2'), oldObject: lease('n2') }),
      `leases.${coordination} "n2" is forbidden: can only access node lease with the same name as the requesting node`,
    );
    await refused(
      leaseAttrs({ namespace: 'default', name: 'n1', object: lease('n1') }),
      `leases.${coordination} "n1" is forbidden: can only access leases in the "${leaseNs}" system namespace`,
    );
  });

  it('lets a node request tokens only bound to its own Pods', async () => {
    const tokenAttrs = (ref: Record<string, unknown> | undefined) =>
      attrs({
        resource: 'serviceaccounts',
        subresource: 'token',
        kind: 'ServiceAccount',
        name: 'sa',
        object: { spec: { audiences: [], boundObjectRef: ref } },
      });
    await plugin.validate(tokenAttrs({ apiVersion: 'v1', kind: 'Pod', name: 'p1', uid: 'u-p1' }));
    await refused(
      tokenAttrs(undefined),
      'serviceaccounts "sa" is forbidden: node requested token not bound to a pod',
    );
    await refused(
      tokenAttrs({ apiVersion: 'v1', kind: 'Pod', name: 'p1' }),
      'serviceaccounts "sa" is forbidden: node requested token with a pod binding without a uid',
    );
    await refused(
      tokenAttrs({ apiVersion: 'v1', kind: 'Pod', name: 'p2', uid: 'u-p2' }),
      'serviceaccounts "sa" is forbidden: node requested token bound to a pod scheduled on a different node',
    );
    await refused(
      tokenAttrs({ apiVersion: 'v1', kind: 'Pod', name: 'p1', uid: 'old' }),
      'serviceaccounts "sa" is forbidden: the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
    );
  });

  it('lets a node write only its own CSINode', async () => {
    const storage = groupName(profile, 'storage');
    await refused(
      attrs({
        group: storage,
        resource: 'csinodes',
        namespace: '',
        name: 'n2',
        object: { metadata: { name: 'n2' } },
      }),
      `csinodes.${storage} "n2" is forbidden: can only access CSINode with the same name as the requesting node`,
    );
  });

  it('leaves other users alone and refuses a node user without a name', async () => {
    const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
    await plugin.validate(attrs({ user: alice, operation: 'DELETE', name: 'p2' }));
    await refused(
      attrs({
        user: { username: 'system:node:', groups: ['system:nodes'] },
        operation: 'DELETE',
        name: 'p1',
      }),
      'pods "p1" is forbidden: could not determine node from user "system:node:"',
    );
  });
});
