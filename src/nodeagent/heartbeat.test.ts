// A simulated node's registration and heartbeat on the fake cluster and a fake clock: the Node as
// registered (labels, capacity, addresses, system info, conditions), the Lease (holder, duration,
// owner) renewed every 10 s, the status written again only when the report interval has passed
// or the status changed, and a re-registration that puts the labels back.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatMicroTime,
  type Lease,
  leaseResource,
  parseMicroTime,
} from '../client/leader-election/lease-lock.ts';
import { FakeClock } from '../client/testing/fake-clock.ts';
import { FakeCluster } from '../client/testing/fake-cluster.ts';
import { namingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import { waitUntil } from '../server/testing/wait-for.ts';
import { NodeHeartbeat } from './heartbeat.ts';
import { agentVersion, nodeStatus, nodeStatusChanged, simulatedNode } from './node-object.ts';
import { NODES, type Node } from './objects.ts';

const profile = namingProfile('spec');
const names = simulatedNodeNames(profile);

function setup() {
  const clock = new FakeClock();
  const cluster = new FakeCluster({ clock });
  const node = simulatedNode('node-3', 3, profile);
  const errors: unknown[] = [];
  const hb = new NodeHeartbeat({ client: cluster, node, clock, onError: (e) => errors.push(e) });
  const leases = cluster.resource<Lease>(leaseResource(profile), names.nodeLeaseNamespace);
  const statusWrites = () =>
    cluster
      .callsOf('patch', 'nodes')
      .filter((c) => (c.opts as { subresource?: string })?.subresource === 'status').length;
  return { clock, cluster, node, hb, leases, errors, statusWrites };
}

describe('simulated node heartbeat', () => {
  it('registers the Node as the agent reports it', async () => {
    const { cluster, hb, errors } = setup();
    await hb.start();
    try {
      const n = await cluster.resource<Node>(NODES).get('node-3');
      assert.equal(n.metadata?.labels?.[names.hostnameLabel], 'node-3');
      assert.equal(n.metadata?.labels?.[names.osLabel], 'linux');
      assert.ok(n.metadata?.labels?.[names.archLabel]);
      assert.equal(n.status?.capacity?.pods, '110');
      assert.equal(n.status?.allocatable?.pods, '110');
      assert.ok(n.status?.capacity?.cpu && n.status.capacity.memory);
      assert.deepEqual(n.status?.addresses, [
        { type: 'InternalIP', address: '127.0.0.5' },
        { type: 'Hostname', address: 'node-3' },
      ]);
      assert.equal(n.status?.nodeInfo?.[names.versionField], agentVersion());
      assert.equal(n.status?.nodeInfo?.operatingSystem, 'linux');
      assert.deepEqual(
        n.status?.conditions?.map((c) => [c.type, c.status, c.reason]),
        [
          ['MemoryPressure', 'False', names.memoryPressure.reason],
          ['DiskPressure', 'False', names.diskPressure.reason],
          ['PIDPressure', 'False', names.pidPressure.reason],
          ['Ready', 'True', names.ready.reason],
        ],
      );
      assert.equal(
        names.ready.reason,
        `${profile.nodeAgent[0]?.toUpperCase()}${profile.nodeAgent.slice(1)}Ready`,
      );
      assert.deepEqual(n.spec?.podCIDRs, ['10.244.3.0/24']);
      assert.deepEqual(errors, []);
    } finally {
      hb.stop();
    }
  });

  it('keeps a Lease for the node and renews it every 10 s', async () => {
    const { clock, cluster, hb, leases, errors } = setup();
    await hb.start();
    try {
      const node = await cluster.resource<Node>(NODES).get('node-3');
      const first = await leases.get('node-3');
      assert.equal(first.spec?.holderIdentity, 'node-3');
      assert.equal(first.spec?.leaseDurationSeconds, 40);
      assert.equal(first.spec?.renewTime, formatMicroTime(clock.now()));
      assert.deepEqual(first.metadata?.ownerReferences, [
        { apiVersion: 'v1', kind: 'Node', name: 'node-3', uid: node.metadata?.uid },
      ]);
      const t0 = parseMicroTime(first.spec?.renewTime);
      await clock.advance(10_000);
      await waitUntil(
        async () => parseMicroTime((await leases.get('node-3')).spec?.renewTime) === t0 + 10_000,
        'the first renewal',
      );
      await clock.advance(10_000);
      await waitUntil(
        async () => parseMicroTime((await leases.get('node-3')).spec?.renewTime) === t0 + 20_000,
        'the second renewal',
      );
      assert.deepEqual(errors, []);
    } finally {
      hb.stop();
    }
  });

  it('retries a failed renewal after 200 ms, and recreates a Lease someone deleted', async () => {
    const { clock, cluster, hb, leases } = setup();
    await hb.start();
    try {
      const t0 = parseMicroTime((await leases.get('node-3')).spec?.renewTime);
      cluster.failNext('update', new Error('connection reset'), { resource: 'leases' });
      await clock.advance(10_000);
      await waitUntil(() => cluster.callsOf('update', 'leases').length === 1, 'the failed renewal');
      await clock.advance(200);
      await waitUntil(
        async () => parseMicroTime((await leases.get('node-3')).spec?.renewTime) === t0 + 10_200,
        'the retried renewal',
      );
      await leases.delete('node-3');
      // The next renewal's update finds nothing; the retry reads again and creates it.
      await clock.advance(10_000);
      await clock.advance(200);
      await waitUntil(async () => (await leases.list()).items.length === 1, 'the Lease recreated');
      const again = await leases.get('node-3');
      assert.equal(again.spec?.holderIdentity, 'node-3');
      assert.equal(again.metadata?.ownerReferences?.length, 1);
    } finally {
      hb.stop();
    }
  });

  it('writes the status every 5 minutes when unchanged, and at once when it changed', async () => {
    const { clock, cluster, hb, statusWrites } = setup();
    await hb.start();
    try {
      await waitUntil(() => hb.informer.hasSynced(), 'the node informer');
      const initial = statusWrites();
      await clock.advance(60_000);
      assert.equal(statusWrites(), initial, 'no write while the status holds');
      await clock.advance(4 * 60_000);
      await waitUntil(() => statusWrites() === initial + 1, 'the 5-minute report');
      // Someone (the node lifecycle controller) marks it not ready: the next check puts it back.
      const nodes = cluster.resource<Node>(NODES);
      const cur = await nodes.get('node-3');
      const conditions = (cur.status?.conditions ?? []).map((c) =>
        c.type === 'Ready' ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown' } : c,
      );
      await nodes.patch('node-3', 'merge', { status: { conditions } }, { subresource: 'status' });
      await waitUntil(
        () =>
          hb.informer.lister.get('node-3')?.status?.conditions?.some((c) => c.status === 'Unknown') === true,
        'the change seen',
      );
      await clock.advance(10_000);
      await waitUntil(
        async () =>
          (await nodes.get('node-3')).status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True',
        'Ready put back',
      );
    } finally {
      hb.stop();
    }
  });

  it('on a Node already registered, puts its labels back', async () => {
    const { cluster, node, hb } = setup();
    await cluster.resource<Node>(NODES).create({ metadata: { name: 'node-3', labels: { team: 'a' } } });
    await hb.start();
    try {
      const n = await cluster.resource<Node>(NODES).get('node-3');
      assert.equal(n.metadata?.labels?.team, 'a');
      assert.equal(n.metadata?.labels?.[names.hostnameLabel], node.name);
      assert.equal(n.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
    } finally {
      hb.stop();
    }
  });

  it('tells a heartbeat-only difference from a change', () => {
    const node = simulatedNode('n', 0, profile);
    const a = nodeStatus(node, Date.UTC(2026, 0, 1));
    const b = nodeStatus(node, Date.UTC(2026, 0, 1, 0, 1), a);
    assert.equal(nodeStatusChanged(a, b), false);
    const c = { ...b, capacity: { ...b.capacity, pods: '10' } };
    assert.equal(nodeStatusChanged(a, c), true);
    // Fields the server adds are not the agent's business.
    assert.equal(nodeStatusChanged({ ...a, images: [] }, b), false);
  });
});
