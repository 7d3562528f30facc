// The Events of the simulated scheduler and node agents. With a FakeEventRecorder: a node agent
// records Pulled, Created and Started per container (init containers first, each about its field
// path) as a Pod starts, nothing again for a Pod an earlier agent started, and Killing per running
// container (sidecars last) as a Pod is deleted; the scheduler records Scheduled, or
// FailedScheduling with its PodScheduled message. Through startSimulatedNodes on the fake cluster:
// the core v1 Events land beside the Pod with the scheduler's and the agent's sources.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CoreEvent } from '../client/events/event.ts';
import { FakeEventRecorder } from '../client/events/fake-recorder.ts';
import { EVENTS } from '../client/events/recorder.ts';
import { FakeClock } from '../client/testing/fake-clock.ts';
import { FakeCluster } from '../client/testing/fake-cluster.ts';
import { namingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import { waitFor } from '../server/testing/wait-for.ts';
import { NodeAgent } from './agent.ts';
import { PodEvents } from './events.ts';
import { simulatedNode } from './node-object.ts';
import { PODS, type Pod } from './objects.ts';
import { Scheduler } from './scheduler.ts';
import { startSimulatedNodes } from './simulated-nodes.ts';
import { FakePodCluster } from './testing.ts';

const profile = namingProfile('spec');
const names = simulatedNodeNames(profile);
const PRESENT = 'already present on machine and can be accessed by the pod';

function setup() {
  const clock = new FakeClock();
  const cluster = new FakeCluster({ clock });
  const client = new FakePodCluster(cluster);
  const pods = client.resource<Pod>(PODS, 'default');
  const until = (name: string, ok: (p: Pod) => boolean, what: string) =>
    waitFor(
      async () => {
        await clock.advance(0);
        return pods.get(name);
      },
      ok,
      what,
    );
  return { clock, cluster, client, pods, until };
}

describe('node agent events', () => {
  it('records each container pulled, created and started, then killed on deletion', async () => {
    const { clock, client, pods, until } = setup();
    const recorder = new FakeEventRecorder();
    const errors: unknown[] = [];
    const agent = new NodeAgent({
      client,
      node: simulatedNode('node-1', 1, profile),
      clock,
      events: new PodEvents(recorder),
      onError: (e) => errors.push(e),
    });
    agent.start();
    try {
      await pods.create({
        metadata: { name: 'web' },
        spec: {
          nodeName: 'node-1',
          initContainers: [
            { name: 'setup', image: 'busybox' },
            { name: 'proxy', image: 'envoy:1.30', restartPolicy: 'Always' },
          ],
          containers: [{ name: 'app', image: 'nginx' }],
        },
      });
      await until('web', (p) => p.status?.phase === 'Running', 'Running');
      const started = recorder.events.map((e) => [e.type, e.reason, e.fieldPath, e.message]);
      const three = (field: string, image: string) => [
        ['Normal', 'Pulled', field, `Container image "${image}" ${PRESENT}`],
        ['Normal', 'Created', field, 'Container created'],
        ['Normal', 'Started', field, 'Container started'],
      ];
      assert.deepEqual(started, [
        ...three('spec.initContainers{setup}', 'busybox'),
        ...three('spec.initContainers{proxy}', 'envoy:1.30'),
        ...three('spec.containers{app}', 'nginx'),
      ]);
      const obj = recorder.events[0]?.object;
      assert.equal(obj?.kind, 'Pod');
      assert.equal(obj?.apiVersion, 'v1');
      assert.equal(obj?.metadata?.name, 'web');
      assert.equal(obj?.metadata?.namespace, 'default');

      // A later status change (a resync) records nothing more.
      await pods.patch('web', 'merge', { metadata: { labels: { touched: 'yes' } } });
      await until('web', (p) => p.metadata?.labels?.touched === 'yes', 'the label seen');
      await clock.advance(0);
      assert.equal(recorder.events.length, 9);

      await pods.delete('web');
      await waitFor(
        async () => {
          await clock.advance(1000);
          return recorder.events.filter((e) => e.reason === 'Killing');
        },
        (k) => k.length === 2,
        'two Killing events',
      );
      assert.deepEqual(
        recorder.events.slice(9).map((e) => [e.reason, e.fieldPath, e.message]),
        [
          ['Killing', 'spec.containers{app}', 'Stopping container app'],
          ['Killing', 'spec.initContainers{proxy}', 'Stopping container proxy'],
        ],
      );
      assert.deepEqual(errors, []);
    } finally {
      await agent.stop();
    }
  });

  it('records no start for a Pod an earlier agent started, and no kill for one never run', async () => {
    const { clock, client, pods, until } = setup();
    const recorder = new FakeEventRecorder();
    const agent = new NodeAgent({
      client,
      node: simulatedNode('node-1', 1, profile),
      clock,
      events: new PodEvents(recorder),
    });
    await pods.create({
      metadata: { name: 'old' },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
    });
    await pods.patch(
      'old',
      'merge',
      { status: { phase: 'Running', startTime: '2024-01-01T00:00:00Z' } },
      { subresource: 'status' },
    );
    agent.start();
    try {
      await until(
        'old',
        (p) => p.status?.conditions?.some((c) => c.type === 'Ready') === true,
        'the agent reports it',
      );
      assert.deepEqual(recorder.events, []);
    } finally {
      await agent.stop();
    }
  });
});

describe('scheduler events', () => {
  it('records Scheduled for a bound Pod and FailedScheduling for one that fits nowhere', async () => {
    const { clock, client, pods, until } = setup();
    const nodes = await startSimulatedNodes({
      count: 2,
      namePrefix: 'ev',
      profile,
      clientFor: () => client,
      scheduler: false,
      clock,
    });
    const recorder = new FakeEventRecorder();
    const scheduler = new Scheduler({ client, profile, clock, recorder });
    scheduler.start();
    try {
      await pods.create({
        metadata: { name: 'fits' },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      });
      const bound = await until('fits', (p) => p.spec?.nodeName !== undefined, 'fits bound');
      await pods.create({
        metadata: { name: 'picky' },
        spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'nginx' }] },
      });
      const pending = await until(
        'picky',
        (p) => p.status?.conditions?.some((c) => c.reason === 'Unschedulable') === true,
        'picky Unschedulable',
      );
      const byPod = (name: string) =>
        recorder.events
          .filter((e) => e.object.metadata?.name === name)
          .map((e) => [e.object.kind, e.type, e.reason, e.message]);
      assert.deepEqual(byPod('fits'), [
        ['Pod', 'Normal', 'Scheduled', `Successfully assigned default/fits to ${bound.spec?.nodeName}`],
      ]);
      const message = pending.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message;
      assert.equal(
        message,
        "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. " +
          'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
      );
      assert.deepEqual(byPod('picky')[0], ['Pod', 'Warning', 'FailedScheduling', message]);
    } finally {
      await scheduler.stop();
      await nodes.stop();
    }
  });
});

describe('simulated nodes write their Events', () => {
  it('the scheduler and the agent record core v1 Events about a Pod, with their sources', async () => {
    const { clock, client, pods, until } = setup();
    const errors: unknown[] = [];
    const handle = await startSimulatedNodes({
      count: 1,
      namePrefix: 'evs',
      profile,
      clientFor: () => client,
      scheduler: { client },
      clock,
      onError: (e, who) => errors.push([who, e]),
    });
    try {
      await pods.create({
        metadata: { name: 'told' },
        spec: { schedulerName: names.defaultSchedulerName, containers: [{ name: 'c', image: 'nginx' }] },
      });
      await until('told', (p) => p.status?.phase === 'Running', 'Running');
      const events = await waitFor(
        async () => (await client.resource<CoreEvent>(EVENTS, 'default').list()).items,
        (items) => items.filter((e) => e.involvedObject.name === 'told').length === 4,
        'four Events about the Pod',
      );
      const about = events
        .filter((e) => e.involvedObject.name === 'told')
        .map((e) => [e.reason, e.source.component, e.source.host, e.involvedObject.fieldPath]);
      assert.deepEqual(about.sort(), [
        ['Created', profile.nodeAgent, 'evs-0', 'spec.containers{c}'],
        ['Pulled', profile.nodeAgent, 'evs-0', 'spec.containers{c}'],
        ['Scheduled', names.defaultSchedulerName, undefined, undefined],
        ['Started', profile.nodeAgent, 'evs-0', 'spec.containers{c}'],
      ]);
      assert.deepEqual(errors, []);
    } finally {
      await handle.stop();
    }
  });
});
