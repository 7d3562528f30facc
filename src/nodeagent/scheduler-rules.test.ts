// The minimal scheduler's choice: only Ready, schedulable nodes that carry the nodeSelector's
// labels, whose NoSchedule/NoExecute taints the Pod tolerates and that have room; the fewest Pods
// first, ties in turn; and upstream's FailedScheduling message when nothing fits.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import type { Node, Pod, Taint } from './objects.ts';
import { chooseNode, toleratesTaint } from './scheduler-rules.ts';

const UNSCHEDULABLE = simulatedNodeNames(namingProfile('spec')).unschedulableTaint;

function node(
  name: string,
  extra: {
    ready?: boolean;
    labels?: Record<string, string>;
    taints?: Taint[];
    unschedulable?: boolean;
    pods?: string;
  } = {},
): Node {
  return {
    metadata: { name, labels: extra.labels ?? {} },
    spec: { taints: extra.taints, unschedulable: extra.unschedulable },
    status: {
      allocatable: { pods: extra.pods ?? '110' },
      conditions: [{ type: 'Ready', status: extra.ready === false ? 'False' : 'True' }],
    },
  };
}

const pod = (spec: Pod['spec'] = {}): Pod => ({ metadata: { name: 'p', namespace: 'default' }, spec });
const none = () => 0;
const pick = (p: Pod, nodes: Node[], counts: (n: string) => number = none) => {
  const c = chooseNode(p, nodes, counts, { next: 0 }, UNSCHEDULABLE);
  return c.node?.metadata?.name ?? (c as { message: string }).message;
};

describe('scheduler choice', () => {
  it('skips nodes that are not Ready or are unschedulable', () => {
    assert.equal(
      pick(pod(), [node('a', { ready: false }), node('b', { unschedulable: true }), node('c')]),
      'c',
    );
  });

  it('lets a Pod tolerating the unschedulable taint onto a cordoned node', () => {
    const p = pod({ tolerations: [{ key: UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' }] });
    assert.equal(pick(p, [node('a', { unschedulable: true })]), 'a');
  });

  it('honours nodeSelector labels', () => {
    const p = pod({ nodeSelector: { disk: 'ssd' } });
    assert.equal(pick(p, [node('a'), node('b', { labels: { disk: 'ssd' } })]), 'b');
  });

  it('honours NoSchedule and NoExecute taints against tolerations, not PreferNoSchedule', () => {
    const gpu: Taint = { key: 'gpu', value: 'yes', effect: 'NoSchedule' };
    const evict: Taint = { key: 'maint', effect: 'NoExecute' };
    const soft: Taint = { key: 'soft', effect: 'PreferNoSchedule' };
    const nodes = [
      node('a', { taints: [gpu] }),
      node('b', { taints: [evict] }),
      node('c', { taints: [soft] }),
    ];
    assert.equal(pick(pod(), nodes), 'c');
    const tolerant = pod({
      tolerations: [{ key: 'gpu', operator: 'Equal', value: 'yes', effect: 'NoSchedule' }],
    });
    assert.equal(pick(tolerant, nodes.slice(0, 2)), 'a');
    assert.equal(pick(pod({ tolerations: [{ operator: 'Exists' }] }), nodes.slice(1, 2)), 'b');
  });

  it('matches tolerations as upstream does', () => {
    const t: Taint = { key: 'k', value: 'v', effect: 'NoSchedule' };
    assert.equal(toleratesTaint({ key: 'k', value: 'v' }, t), true);
    assert.equal(toleratesTaint({ key: 'k', value: 'w' }, t), false);
    assert.equal(toleratesTaint({ key: 'k', operator: 'Exists' }, t), true);
    assert.equal(toleratesTaint({ key: 'k', operator: 'Exists', effect: 'NoExecute' }, t), false);
    assert.equal(toleratesTaint({ operator: 'Exists' }, t), true);
    assert.equal(toleratesTaint({ key: 'other', operator: 'Exists' }, t), false);
  });

  it('puts the Pod on the node with the fewest Pods, and takes equal nodes in turn', () => {
    const counts: Record<string, number> = { a: 3, b: 1, c: 2 };
    assert.equal(
      pick(pod(), [node('a'), node('b'), node('c')], (n) => counts[n] ?? 0),
      'b',
    );
    const cursor = { next: 0 };
    const nodes = [node('a'), node('b'), node('c')];
    const order = Array.from(
      { length: 4 },
      () => chooseNode(pod(), nodes, none, cursor, UNSCHEDULABLE).node?.metadata?.name,
    );
    assert.deepEqual(order, ['a', 'b', 'c', 'a']);
  });

  it('leaves out full nodes', () => {
    assert.equal(
      pick(pod(), [node('a', { pods: '2' }), node('b')], (n) => (n === 'a' ? 2 : 50)),
      'b',
    );
  });

  it("says why nothing fits, in upstream's words", () => {
    const nodes = [
      node('a', { taints: [{ key: 'gpu', effect: 'NoSchedule' }] }),
      node('b', { unschedulable: true }),
      node('c'),
    ];
    assert.equal(
      pick(pod({ nodeSelector: { disk: 'ssd' } }), nodes),
      "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {gpu: }, " +
        '1 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    assert.equal(pick(pod(), []), 'no nodes available to schedule pods');
  });
});
