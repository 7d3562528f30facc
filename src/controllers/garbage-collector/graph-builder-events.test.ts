// The graph builder's OwnerRefInvalidNamespace Warnings, fed watch events directly: a dependent
// naming an observed owner of another namespace, a cluster-scoped dependent naming a namespaced
// owner, and a virtual owner that turns out to live elsewhere; and the references it leaves quiet.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeEventRecorder } from '../../client/events/fake-recorder.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { namingProfile } from '../../naming/index.ts';
import type { GraphNode } from './graph.ts';
import { GraphBuilder, invalidNamespaceMessage } from './graph-builder.ts';

function setup() {
  const recorder = new FakeEventRecorder();
  const queued: GraphNode[] = [];
  const graph = new GraphBuilder(
    namingProfile('spec'),
    {
      attemptToDelete: (n) => queued.push(n),
      attemptToDeleteLater: (n) => queued.push(n),
      attemptToOrphan: () => {},
    },
    recorder,
  );
  const cm = graph.types.get('v1', 'ConfigMap');
  const ns = graph.types.get('v1', 'Namespace');
  return { recorder, queued, graph, cm, ns };
}

const ref = (name: string, uid: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', name, uid });

function configMap(namespace: string, name: string, uid: string, owners: unknown[] = []): ApiObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name, uid, ownerReferences: owners } };
}

describe('graph builder: OwnerRefInvalidNamespace', () => {
  it('a dependent naming an observed owner of another namespace gets a Warning', () => {
    const { recorder, queued, graph, cm } = setup();
    graph.observe(cm, configMap('a', 'owner', 'u-owner'));
    graph.observe(cm, configMap('b', 'dep', 'u-dep', [ref('owner', 'u-owner')]));
    assert.equal(recorder.events.length, 1);
    const [e] = recorder.events;
    assert.equal(e?.type, 'Warning');
    assert.equal(e?.reason, 'OwnerRefInvalidNamespace');
    assert.equal(
      e?.message,
      'ownerRef [v1/ConfigMap, namespace: b, name: owner, uid: u-owner] does not exist in namespace "b"',
    );
    assert.deepEqual(e?.object, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dep', uid: 'u-dep', namespace: 'b' },
    });
    assert.ok(
      queued.some((n) => n.uid === 'u-dep'),
      'the dependent is checked too',
    );
  });

  it('a cluster-scoped dependent naming an observed namespaced owner gets a Warning', () => {
    const { recorder, graph, cm, ns } = setup();
    graph.observe(cm, configMap('a', 'owner', 'u-owner'));
    graph.observe(ns, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'odd', uid: 'u-odd', ownerReferences: [ref('owner', 'u-owner')] },
    });
    assert.deepEqual(
      recorder.events.map((e) => [e.reason, e.message, e.object.metadata?.namespace]),
      [
        [
          'OwnerRefInvalidNamespace',
          'ownerRef [v1/ConfigMap, namespace: , name: owner, uid: u-owner] does not exist in namespace ""',
          undefined,
        ],
      ],
    );
  });

  it('an owner first named, then seen in another namespace, warns about the dependent', () => {
    const { recorder, graph, cm } = setup();
    graph.observe(cm, configMap('b', 'dep', 'u-dep', [ref('owner', 'u-owner')]));
    assert.equal(recorder.events.length, 0, 'a virtual owner proves nothing yet');
    graph.observe(cm, configMap('a', 'owner', 'u-owner'));
    assert.deepEqual(recorder.reasons(), ['OwnerRefInvalidNamespace']);
    assert.equal(recorder.events[0]?.object.metadata?.name, 'dep');
    assert.equal(recorder.events[0]?.message, invalidNamespaceMessage(ref('owner', 'u-owner'), 'b'));
  });

  it('owners in the same namespace, and cluster-scoped owners, are no cause for a Warning', () => {
    const { recorder, graph, cm, ns } = setup();
    graph.observe(cm, configMap('a', 'owner', 'u-owner'));
    graph.observe(cm, configMap('a', 'dep', 'u-dep', [ref('owner', 'u-owner')]));
    graph.observe(ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'top', uid: 'u-top' } });
    graph.observe(
      cm,
      configMap('c', 'dep2', 'u-dep2', [{ apiVersion: 'v1', kind: 'Namespace', name: 'top', uid: 'u-top' }]),
    );
    // Named before it is seen, and seen where its dependent is.
    graph.observe(cm, configMap('d', 'dep3', 'u-dep3', [ref('later', 'u-later')]));
    graph.observe(cm, configMap('d', 'later', 'u-later'));
    assert.deepEqual(recorder.events, []);
  });
});
