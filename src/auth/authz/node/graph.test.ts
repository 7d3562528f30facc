// The graph as Pods bind, change and go, and PVs claim: edges appear for what a bound Pod names,
// vanish with it (and shared objects stay while another Pod still names them), a relist drops
// what disappeared, and walks never cross into another node's Pods.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mirrorPodAnnotation } from '../../../naming/node-agents.ts';
import { namingProfile } from '../../../naming/profile.ts';
import { Graph } from './graph.ts';
import { GraphPopulator } from './graph-populator.ts';

const profile = namingProfile('spec');

function pod(name: string, nodeName: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    metadata: { namespace: 'ns', name, uid: `uid-${name}`, ...(extra.metadata as object) },
    spec: {
      ...(nodeName === undefined ? {} : { nodeName }),
      serviceAccountName: 'default',
      containers: [
        {
          name: 'c',
          env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: 'cm-env', key: 'k' } } }],
          envFrom: [{ secretRef: { name: 'sec-envfrom' } }],
        },
      ],
      volumes: [
        { name: 'v1', secret: { secretName: `sec-${name}` } },
        { name: 'v2', persistentVolumeClaim: { claimName: 'claim' } },
        { name: 'eph', ephemeral: { volumeClaimTemplate: {} } },
        {
          name: 'proj',
          projected: { sources: [{ configMap: { name: 'cm-proj' } }, { secret: { name: 'sec-proj' } }] },
        },
      ],
      ...(extra.spec as object),
    },
  };
}

const fresh = () => {
  const graph = new Graph();
  return { graph, feed: new GraphPopulator(graph, profile) };
};

const reach = (g: Graph, node: string, type: Parameters<Graph['pathToNode']>[1], ns: string, name: string) =>
  g.pathToNode(node, type, ns, name).found;

describe('node authorizer graph', () => {
  it('adds no edges for a Pod until it is bound, then links what it names to its node', () => {
    const { graph, feed } = fresh();
    feed.upsert('Pod', pod('p1', undefined));
    assert.equal(graph.size, 0);
    feed.upsert('Pod', pod('p1', 'n1'));
    assert.ok(graph.hasEdge(['pod', 'ns', 'p1'], ['node', '', 'n1']));
    for (const [type, name] of [
      ['secret', 'sec-p1'],
      ['secret', 'sec-envfrom'],
      ['secret', 'sec-proj'],
      ['configmap', 'cm-env'],
      ['configmap', 'cm-proj'],
      ['pvc', 'claim'],
      ['pvc', 'p1-eph'],
      ['serviceAccount', 'default'],
    ] as const) {
      assert.ok(graph.hasEdge([type, 'ns', name], ['pod', 'ns', 'p1']), `${type} ${name}`);
      assert.ok(reach(graph, 'n1', type, 'ns', name), `${type} ${name} reaches n1`);
      assert.equal(reach(graph, 'n2', type, 'ns', name), false);
    }
    assert.equal(reach(graph, 'n1', 'secret', 'ns', 'other'), false);
  });

  it('removes a deleted Pod with the objects only it named, keeping shared ones for the other Pod', () => {
    const { graph, feed } = fresh();
    feed.upsert('Pod', pod('p1', 'n1'));
    feed.upsert('Pod', pod('p2', 'n2'));
    assert.ok(reach(graph, 'n2', 'configmap', 'ns', 'cm-env'));
    feed.remove('Pod', pod('p1', 'n1'));
    assert.equal(graph.has('pod', 'ns', 'p1'), false);
    assert.equal(graph.has('secret', 'ns', 'sec-p1'), false);
    assert.equal(graph.has('node', '', 'n1'), false);
    assert.equal(reach(graph, 'n1', 'configmap', 'ns', 'cm-env'), false);
    assert.ok(reach(graph, 'n2', 'configmap', 'ns', 'cm-env'));
    feed.remove('Pod', pod('p2', 'n2'));
    assert.equal(graph.size, 0);
  });

  it('gives a mirror Pod only its node edge', () => {
    const { graph, feed } = fresh();
    feed.upsert(
      'Pod',
      pod('m', 'n1', { metadata: { annotations: { [mirrorPodAnnotation(profile)]: 'x' } } }),
    );
    assert.ok(graph.hasEdge(['pod', 'ns', 'm'], ['node', '', 'n1']));
    assert.equal(graph.has('secret', 'ns', 'sec-m'), false);
    assert.equal(graph.size, 2);
  });

  it('rebuilds a Pod recreated under the same name on another node, and drops Pods gone at a relist', () => {
    const { graph, feed } = fresh();
    feed.upsert('Pod', pod('p1', 'n1'));
    feed.upsert('Pod', { ...pod('p1', 'n2'), metadata: { namespace: 'ns', name: 'p1', uid: 'other' } });
    assert.equal(reach(graph, 'n1', 'secret', 'ns', 'sec-p1'), false);
    assert.ok(reach(graph, 'n2', 'secret', 'ns', 'sec-p1'));
    feed.upsert('Pod', pod('p3', 'n3'));
    feed.replace('Pod', [pod('p3', 'n3')]);
    assert.equal(graph.has('pod', 'ns', 'p1'), false);
    assert.ok(reach(graph, 'n3', 'secret', 'ns', 'sec-p3'));
  });

  it('links a claimed PV and the Secrets a node reads for it through the claim to the node', () => {
    const { graph, feed } = fresh();
    feed.upsert('Pod', pod('p1', 'n1'));
    const pv = {
      metadata: { name: 'pv1' },
      spec: {
        claimRef: { namespace: 'ns', name: 'claim' },
        csi: {
          driver: 'd',
          volumeHandle: 'h',
          nodePublishSecretRef: { namespace: 'ns', name: 'mount-secret' },
          controllerPublishSecretRef: { namespace: 'ns', name: 'controller-secret' },
        },
      },
    };
    feed.upsert('PersistentVolume', pv);
    assert.ok(reach(graph, 'n1', 'pv', '', 'pv1'));
    assert.ok(reach(graph, 'n1', 'secret', 'ns', 'mount-secret'));
    assert.equal(graph.has('secret', 'ns', 'controller-secret'), false);
    assert.equal(reach(graph, 'n2', 'pv', '', 'pv1'), false);
    feed.remove('PersistentVolume', pv);
    assert.equal(graph.has('pv', '', 'pv1'), false);
    assert.equal(graph.has('secret', 'ns', 'mount-secret'), false);
    // The claim stays: the Pod still names it.
    assert.ok(reach(graph, 'n1', 'pvc', 'ns', 'claim'));
  });

  it('says why a walk failed as upstream logs it', () => {
    const { graph, feed } = fresh();
    feed.upsert('Pod', pod('p1', 'n1'));
    assert.deepEqual(graph.pathToNode('n9', 'secret', 'ns', 'sec-p1'), {
      found: false,
      why: "unknown node 'n9' cannot get secret ns/sec-p1",
    });
    assert.deepEqual(graph.pathToNode('n1', 'secret', 'ns', 'nope'), {
      found: false,
      why: "node 'n1' cannot get unknown secret ns/nope",
    });
  });

  it('answers from the per-destination counts for an object many Pods share', () => {
    const { graph, feed } = fresh();
    for (let i = 0; i < 300; i++) feed.upsert('Pod', pod(`p${i}`, `n${i % 3}`));
    for (const n of ['n0', 'n1', 'n2']) assert.ok(reach(graph, n, 'configmap', 'ns', 'cm-env'));
    for (let i = 0; i < 300; i++) if (i % 3 !== 2) feed.remove('Pod', pod(`p${i}`, `n${i % 3}`));
    assert.equal(reach(graph, 'n0', 'configmap', 'ns', 'cm-env'), false);
    assert.ok(reach(graph, 'n2', 'configmap', 'ns', 'cm-env'));
  });
});
