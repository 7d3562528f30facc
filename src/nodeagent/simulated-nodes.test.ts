// startSimulatedNodes on the fake cluster: N Nodes named from the prefix, each with its Lease; the
// scheduler binds pending Pods of the default scheduler through the binding subresource, spreading
// them over the nodes, leaves other schedulers' Pods alone, marks a Pod that fits nowhere
// Unschedulable and places it once a node fits; the agents run what is bound; stop ends it all.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Lease, leaseResource } from '../client/leader-election/lease-lock.ts';
import { FakeClock } from '../client/testing/fake-clock.ts';
import { FakeCluster } from '../client/testing/fake-cluster.ts';
import { namingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import { waitFor } from '../server/testing/wait-for.ts';
import { NODES, type Node, PODS, type Pod } from './objects.ts';
import { startSimulatedNodes } from './simulated-nodes.ts';
import { FakePodCluster } from './testing.ts';

const profile = namingProfile('spec');
const names = simulatedNodeNames(profile);

describe('startSimulatedNodes', () => {
  it('registers the nodes, schedules Pods across them and runs them', async () => {
    const clock = new FakeClock();
    const cluster = new FakeCluster({ clock });
    const client = new FakePodCluster(cluster);
    const errors: unknown[] = [];
    const handle = await startSimulatedNodes({
      count: 3,
      namePrefix: 'sim',
      profile,
      clientFor: () => client,
      scheduler: { client },
      clock,
      onError: (e, who) => errors.push([who, e]),
    });
    try {
      assert.deepEqual(handle.nodeNames, ['sim-0', 'sim-1', 'sim-2']);
      const nodes = await client.resource<Node>(NODES).list();
      assert.deepEqual(
        nodes.items.map((n) => n.metadata?.name),
        ['sim-0', 'sim-1', 'sim-2'],
      );
      const leases = await client.resource<Lease>(leaseResource(profile), names.nodeLeaseNamespace).list();
      assert.equal(leases.items.length, 3);

      const pods = client.resource<Pod>(PODS, 'default');
      for (let i = 0; i < 6; i++) {
        await pods.create({
          metadata: { name: `p${i}` },
          spec: { schedulerName: names.defaultSchedulerName, containers: [{ name: 'c', image: 'nginx' }] },
        });
      }
      await pods.create({
        metadata: { name: 'other' },
        spec: { schedulerName: 'my-scheduler', containers: [{ name: 'c', image: 'nginx' }] },
      });
      const running = await waitFor(
        async () => {
          await clock.advance(0);
          return (await pods.list()).items;
        },
        (items) => items.filter((p) => p.status?.phase === 'Running').length === 6,
        'six Pods Running',
      );
      const perNode = new Map<string, number>();
      for (const p of running) {
        if (p.metadata?.name === 'other') continue;
        perNode.set(p.spec?.nodeName ?? '', (perNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
      }
      assert.deepEqual([...perNode.entries()].sort(), [
        ['sim-0', 2],
        ['sim-1', 2],
        ['sim-2', 2],
      ]);
      const other = running.find((p) => p.metadata?.name === 'other');
      assert.equal(other?.spec?.nodeName, undefined, "another scheduler's Pod is left alone");
      assert.ok(
        cluster
          .callsOf('create', 'pods')
          .some((c) => (c.opts as { subresource?: string } | undefined)?.subresource === 'binding'),
      );

      // A Pod no node fits is marked Unschedulable, and placed once a node carries the label.
      await pods.create({
        metadata: { name: 'picky' },
        spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'nginx' }] },
      });
      const pending = await waitFor(
        async () => {
          await clock.advance(0);
          return pods.get('picky');
        },
        (p) =>
          p.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable') ===
          true,
        'picky Unschedulable',
      );
      assert.equal(
        pending.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message,
        "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. " +
          'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      );
      await client.resource<Node>(NODES).patch('sim-1', 'merge', { metadata: { labels: { disk: 'ssd' } } });
      const placed = await waitFor(
        async () => {
          await clock.advance(0);
          return pods.get('picky');
        },
        (p) => p.status?.phase === 'Running',
        'picky Running',
      );
      assert.equal(placed.spec?.nodeName, 'sim-1');
      assert.deepEqual(errors, []);
    } finally {
      await handle.stop();
    }
    assert.equal(cluster.openWatches(), 0, 'every watch closed');
  });
});
