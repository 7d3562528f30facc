// The Node authorizer's decisions, as a table: reads through the graph, the node's own Node, Lease
// and CSINode, Pods by field selector, writes left to NodeRestriction, the fixed system:node rules,
// and silence (with upstream's reasons) for everything and everyone else.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeLeaseNamespace } from '../../../naming/node-agents.ts';
import { groupName, namingProfile } from '../../../naming/profile.ts';
import type { UserInfo } from '../../authn/types.ts';
import type { Attributes, SelectorRequirement } from '../types.ts';
import { createNodeAuthorizer } from './create.ts';

const profile = namingProfile('spec');
const coordination = groupName(profile, 'coordination');
const storage = groupName(profile, 'storage');
const leases = nodeLeaseNamespace(profile);

const asNode = (n: string): UserInfo => ({
  username: `system:node:${n}`,
  groups: ['system:nodes', 'system:authenticated'],
});
const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

function req(user: UserInfo, verb: string, resource: string, over: Partial<Attributes> = {}): Attributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: '',
    apiVersion: 'v1',
    resource,
    subresource: '',
    namespace: '',
    name: '',
    ...over,
  };
}

const byNode = (n: string): SelectorRequirement[] => [{ key: 'spec.nodeName', operator: 'In', values: [n] }];

function setup() {
  const h = createNodeAuthorizer(undefined, profile);
  const feed = (p: Parameters<typeof h.graph.addPod>[0]) => h.graph.addPod(p);
  feed({
    namespace: 'ns',
    name: 'p1',
    nodeName: 'n1',
    mirror: false,
    serviceAccount: 'sa1',
    secrets: ['s1'],
    configMaps: ['c1'],
    claims: ['claim1'],
    resourceClaims: [],
  });
  feed({
    namespace: 'ns',
    name: 'p2',
    nodeName: 'n2',
    mirror: false,
    serviceAccount: 'sa2',
    secrets: ['s2'],
    configMaps: [],
    claims: [],
    resourceClaims: [],
  });
  h.graph.addPv({ name: 'pv1', claim: { namespace: 'ns', name: 'claim1' }, secrets: [] });
  return h.authorizer;
}

const NO_LINK = (n: string) => `no relationship found between node '${n}' and this object`;

describe('Node authorizer decisions', () => {
  const authz = setup();
  const n1 = asNode('n1');
  const cases: [string, Attributes, 'allow' | 'noOpinion', string?][] = [
    ['secret of its Pod', req(n1, 'get', 'secrets', { namespace: 'ns', name: 's1' }), 'allow'],
    ['watch of that secret by name', req(n1, 'watch', 'secrets', { namespace: 'ns', name: 's1' }), 'allow'],
    [
      "another node's Pod's secret",
      req(n1, 'get', 'secrets', { namespace: 'ns', name: 's2' }),
      'noOpinion',
      NO_LINK('n1'),
    ],
    [
      'an unknown secret',
      req(n1, 'get', 'secrets', { namespace: 'ns', name: 'zz' }),
      'noOpinion',
      NO_LINK('n1'),
    ],
    [
      'list of all secrets',
      req(n1, 'list', 'secrets', { namespace: 'ns' }),
      'noOpinion',
      'No Object name found',
    ],
    [
      'secret update',
      req(n1, 'update', 'secrets', { namespace: 'ns', name: 's1' }),
      'noOpinion',
      'can only read resources of this type',
    ],
    ['configmap of its Pod', req(n1, 'get', 'configmaps', { namespace: 'ns', name: 'c1' }), 'allow'],
    [
      'claim of its Pod',
      req(n1, 'get', 'persistentvolumeclaims', { namespace: 'ns', name: 'claim1' }),
      'allow',
    ],
    [
      'list of claims',
      req(n1, 'list', 'persistentvolumeclaims', { namespace: 'ns' }),
      'noOpinion',
      'can only get individual resources of this type',
    ],
    [
      'claim status update',
      req(n1, 'patch', 'persistentvolumeclaims', { namespace: 'ns', name: 'claim1', subresource: 'status' }),
      'allow',
    ],
    ['volume bound to its claim', req(n1, 'get', 'persistentvolumes', { name: 'pv1' }), 'allow'],
    [
      'that volume from another node',
      req(asNode('n2'), 'get', 'persistentvolumes', { name: 'pv1' }),
      'noOpinion',
      NO_LINK('n2'),
    ],
    [
      "token of its Pod's account",
      req(n1, 'create', 'serviceaccounts', { namespace: 'ns', name: 'sa1', subresource: 'token' }),
      'allow',
    ],
    [
      "token of another node's account",
      req(n1, 'create', 'serviceaccounts', { namespace: 'ns', name: 'sa2', subresource: 'token' }),
      'noOpinion',
      NO_LINK('n1'),
    ],
    [
      'service account read',
      req(n1, 'get', 'serviceaccounts', { namespace: 'ns', name: 'sa1' }),
      'noOpinion',
      'can only create tokens for individual service accounts',
    ],
    [
      'own lease',
      req(n1, 'update', 'leases', { apiGroup: coordination, namespace: leases, name: 'n1' }),
      'allow',
    ],
    [
      'lease create (name checked at admission)',
      req(n1, 'create', 'leases', { apiGroup: coordination, namespace: leases }),
      'allow',
    ],
    [
      "another node's lease",
      req(n1, 'update', 'leases', { apiGroup: coordination, namespace: leases, name: 'n2' }),
      'noOpinion',
      'can only access node lease with the same name as the requesting node',
    ],
    [
      'lease elsewhere',
      req(n1, 'get', 'leases', { apiGroup: coordination, namespace: 'default', name: 'n1' }),
      'noOpinion',
      `can only access leases in the ${JSON.stringify(leases)} system namespace`,
    ],
    [
      'lease list',
      req(n1, 'list', 'leases', { apiGroup: coordination, namespace: leases }),
      'noOpinion',
      'can only get, create, update, patch, or delete a node lease',
    ],
    ['own node', req(n1, 'get', 'nodes', { name: 'n1' }), 'allow'],
    [
      "another node's Node",
      req(n1, 'get', 'nodes', { name: 'n2' }),
      'noOpinion',
      "node 'n1' cannot read 'n2', only its own Node object",
    ],
    [
      'all nodes',
      req(n1, 'list', 'nodes'),
      'noOpinion',
      "node 'n1' cannot read all nodes, only its own Node object",
    ],
    ['own node status', req(n1, 'patch', 'nodes', { name: 'n1', subresource: 'status' }), 'allow'],
    [
      "another node's status (NodeRestriction refuses it)",
      req(n1, 'patch', 'nodes', { name: 'n2', subresource: 'status' }),
      'allow',
    ],
    ['node delete', req(n1, 'delete', 'nodes', { name: 'n1' }), 'noOpinion', ''],
    ['its pods by field selector', req(n1, 'watch', 'pods', { fieldSelector: byNode('n1') }), 'allow'],
    [
      "another node's pods by field selector",
      req(n1, 'list', 'pods', { fieldSelector: byNode('n2') }),
      'noOpinion',
      'can only list/watch pods with spec.nodeName field selector',
    ],
    [
      'all pods',
      req(n1, 'list', 'pods'),
      'noOpinion',
      'can only list/watch pods with spec.nodeName field selector',
    ],
    ['its pod', req(n1, 'get', 'pods', { namespace: 'ns', name: 'p1' }), 'allow'],
    [
      "another node's pod",
      req(n1, 'get', 'pods', { namespace: 'ns', name: 'p2' }),
      'noOpinion',
      NO_LINK('n1'),
    ],
    ['mirror pod create', req(n1, 'create', 'pods', { namespace: 'ns' }), 'allow'],
    [
      'pod status update',
      req(n1, 'update', 'pods', { namespace: 'ns', name: 'p1', subresource: 'status' }),
      'allow',
    ],
    [
      'pod eviction',
      req(n1, 'create', 'pods', { namespace: 'ns', name: 'p1', subresource: 'eviction' }),
      'allow',
    ],
    ['pod update', req(n1, 'update', 'pods', { namespace: 'ns', name: 'p1' }), 'noOpinion', ''],
    ['own CSINode', req(n1, 'get', 'csinodes', { apiGroup: storage, name: 'n1' }), 'allow'],
    [
      "another node's CSINode",
      req(n1, 'get', 'csinodes', { apiGroup: storage, name: 'n2' }),
      'noOpinion',
      'can only access CSINode with the same name as the requesting node',
    ],
    ['services (fixed rules)', req(n1, 'list', 'services'), 'allow'],
    ['events (fixed rules)', req(n1, 'create', 'events', { namespace: 'ns' }), 'allow'],
    [
      'deployments (not in the rules)',
      req(n1, 'list', 'deployments', { apiGroup: groupName(profile, 'apps') }),
      'noOpinion',
      '',
    ],
    ['a path', { ...req(n1, 'get', ''), isResourceRequest: false, path: '/healthz' }, 'noOpinion', ''],
    ['a non-node user', req(alice, 'get', 'secrets', { namespace: 'ns', name: 's1' }), 'noOpinion', ''],
    [
      'a node name missing',
      req({ username: 'system:node:', groups: ['system:nodes'] }, 'get', 'nodes', { name: 'x' }),
      'noOpinion',
      'unknown node for user "system:node:"',
    ],
    [
      'a node user outside system:nodes',
      req({ username: 'system:node:n1', groups: [] }, 'get', 'nodes', { name: 'n1' }),
      'noOpinion',
      '',
    ],
  ];
  for (const [name, a, decision, reason] of cases) {
    it(name, () => {
      const v = authz.authorize(a);
      assert.equal(v.decision, decision);
      if (reason !== undefined) assert.equal(v.reason, reason);
    });
  }
});
