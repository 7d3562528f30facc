import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupName, namingProfile } from '../naming/profile.ts';
import type { ResourceInfo } from '../registry/resource.ts';
import {
  aggregatedDiscoveryDocument,
  apiGroupDocument,
  apiGroupListDocument,
  apiResourceListDocument,
  groupsOf,
} from './discovery.ts';

const SPEC = namingProfile('spec');

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const resources: ResourceInfo[] = [
  {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    singular: 'configmap',
    kind: 'ConfigMap',
    listKind: 'ConfigMapList',
    shortNames: ['cm'],
    namespaced: true,
    verbs,
    subresources: {},
  },
  {
    group: '',
    version: 'v1',
    resource: 'namespaces',
    singular: 'namespace',
    kind: 'Namespace',
    listKind: 'NamespaceList',
    shortNames: ['ns'],
    namespaced: false,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: { status: ['get', 'patch', 'update'] },
  },
  {
    group: `${groupName(SPEC, 'coordination')}`,
    version: 'v1',
    resource: 'leases',
    singular: 'lease',
    kind: 'Lease',
    listKind: 'LeaseList',
    namespaced: true,
    verbs,
    subresources: {},
  },
];

describe('discovery documents', () => {
  it('groups come from the resources, core first', () => {
    assert.deepEqual(groupsOf(resources), [
      { name: '', versions: ['v1'] },
      { name: `${groupName(SPEC, 'coordination')}`, versions: ['v1'] },
    ]);
  });

  it('the group list names named groups only, each with its preferred version', () => {
    assert.deepEqual(apiGroupListDocument(groupsOf(resources)), {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [
        {
          name: `${groupName(SPEC, 'coordination')}`,
          versions: [{ groupVersion: `${groupName(SPEC, 'coordination')}/v1`, version: 'v1' }],
          preferredVersion: { groupVersion: `${groupName(SPEC, 'coordination')}/v1`, version: 'v1' },
        },
      ],
    });
    assert.equal(apiGroupDocument(groupsOf(resources)[1]).kind, 'APIGroup');
  });

  it('a resource list carries sub-resources as resource/sub entries', () => {
    const doc = apiResourceListDocument('', 'v1', resources);
    assert.equal(doc.groupVersion, 'v1');
    assert.deepEqual(
      doc.resources.map((r) => r.name),
      ['configmaps', 'namespaces', 'namespaces/status'],
    );
    assert.deepEqual(doc.resources[0], {
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs,
      shortNames: ['cm'],
    });
    assert.equal('apiVersion' in doc, false);
    assert.equal(
      apiResourceListDocument(`${groupName(SPEC, 'coordination')}`, 'v1', resources).apiVersion,
      'v1',
    );
  });

  it('the aggregated document lists versions, scopes and sub-resources', () => {
    const doc = aggregatedDiscoveryDocument(
      `${groupName(SPEC, 'apidiscovery')}/v2`,
      [{ name: '', versions: ['v1'] }],
      resources,
    );
    assert.equal(doc.items.length, 1);
    const ns = doc.items[0].versions[0].resources.find((r) => r.resource === 'namespaces');
    assert.equal(ns?.scope, 'Cluster');
    assert.deepEqual(ns?.subresources, [
      {
        subresource: 'status',
        responseKind: { group: '', version: 'v1', kind: 'Namespace' },
        verbs: ['get', 'patch', 'update'],
      },
    ]);
    assert.equal(doc.items[0].versions[0].freshness, 'Current');
  });
});
