// A simulated node agent on the fake cluster and a fake clock: a bound Pod moves to Running with
// addresses, container statuses and conditions (init containers completed first); a container
// with a readiness probe turns ready after its initial delay; a Pod being deleted is stopped and
// deleted with grace 0 after the short simulated stop; the simulated-exit-code annotation completes
// a Pod whose restartPolicy allows it (and not one that restarts Always).

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { FakeClock } from '../client/testing/fake-clock.ts';
import { FakeCluster } from '../client/testing/fake-cluster.ts';
import { namingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import { waitFor, waitUntil } from '../server/testing/wait-for.ts';
import { NodeAgent } from './agent.ts';
import { simulatedNode } from './node-object.ts';
import { PODS, type Pod } from './objects.ts';
import { FakePodCluster } from './testing.ts';

const profile = namingProfile('spec');
const EXIT = simulatedNodeNames(profile).simulatedExitCodeAnnotation;

describe('simulated node agent', () => {
  let clock: FakeClock;
  let cluster: FakeCluster;
  let client: FakePodCluster;
  let agent: NodeAgent;
  let errors: unknown[];

  beforeEach(() => {
    clock = new FakeClock();
    cluster = new FakeCluster({ clock });
    client = new FakePodCluster(cluster);
    errors = [];
    agent = new NodeAgent({
      client,
      node: simulatedNode('node-1', 1, profile),
      clock,
      onError: (e) => errors.push(e),
    });
    agent.start();
  });

  afterEach(async () => {
    await agent.stop();
    assert.deepEqual(errors, []);
  });

  const pods = () => client.resource<Pod>(PODS, 'default');
  const create = (
    name: string,
    spec: Partial<NonNullable<Pod['spec']>>,
    annotations?: Record<string, string>,
  ) =>
    pods().create({
      metadata: { name, annotations },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }], ...spec },
    });
  const until = (name: string, ok: (p: Pod) => boolean, what: string) =>
    waitFor(
      async () => {
        await clock.advance(0);
        return pods().get(name);
      },
      ok,
      what,
    );

  it('moves a bound Pod to Running with addresses, container statuses and conditions', async () => {
    const created = await create('web', {
      initContainers: [{ name: 'setup', image: 'busybox' }],
      containers: [
        { name: 'b', image: 'registry.example.com/team/b:1.0' },
        { name: 'a', image: 'nginx' },
      ],
    });
    const p = await until('web', (x) => x.status?.phase === 'Running', 'Running');
    const s = p.status ?? {};
    assert.equal(s.hostIP, '127.0.0.3');
    assert.deepEqual(s.hostIPs, [{ ip: '127.0.0.3' }]);
    assert.match(s.podIP ?? '', /^10\.244\.1\.\d+$/);
    assert.deepEqual(s.podIPs, [{ ip: s.podIP }]);
    assert.ok(s.startTime);
    assert.deepEqual(
      s.containerStatuses?.map((c) => [c.name, c.ready, c.started, c.restartCount, c.image]),
      [
        ['a', true, true, 0, 'docker.io/library/nginx:latest'],
        ['b', true, true, 0, 'registry.example.com/team/b:1.0'],
      ],
    );
    const a = s.containerStatuses?.[0];
    assert.equal(a?.state?.running?.startedAt, s.startTime);
    assert.match(a?.imageID ?? '', /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.match(a?.containerID ?? '', /^[a-z]+:\/\/[0-9a-f]{64}$/);
    const init = s.initContainerStatuses?.[0];
    assert.equal(init?.state?.terminated?.exitCode, 0);
    assert.equal(init?.state?.terminated?.reason, 'Completed');
    assert.equal(init?.ready, true);
    assert.deepEqual(
      s.conditions?.map((c) => [c.type, c.status]),
      [
        ['PodReadyToStartContainers', 'True'],
        ['Initialized', 'True'],
        ['Ready', 'True'],
        ['ContainersReady', 'True'],
        ['PodScheduled', 'True'],
      ],
    );
    // The status was written through the subresource, guarded by the Pod's uid.
    const writes = cluster.callsOf('patch', 'pods');
    assert.ok(
      writes.length >= 1 &&
        writes.every((c) => (c.opts as { subresource?: string }).subresource === 'status'),
    );
    assert.equal(created.metadata?.uid, p.metadata?.uid);
    // Nothing changes, so nothing more is written.
    const before = writes.length;
    await clock.advance(60_000);
    assert.equal(cluster.callsOf('patch', 'pods').length, before);
  });

  it('gives each Pod its own stable address', async () => {
    await create('one', {});
    await create('two', {});
    const one = await until('one', (x) => x.status?.phase === 'Running', 'one Running');
    const two = await until('two', (x) => x.status?.phase === 'Running', 'two Running');
    assert.notEqual(one.status?.podIP, two.status?.podIP);
  });

  it('marks a container with a readiness probe ready after its initial delay', async () => {
    await create('slow', {
      containers: [{ name: 'app', image: 'nginx', readinessProbe: { initialDelaySeconds: 20 } }],
    });
    const p = await until('slow', (x) => x.status?.phase === 'Running', 'Running');
    const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
    assert.equal(ready?.status, 'False');
    assert.equal(ready?.reason, 'ContainersNotReady');
    assert.equal(ready?.message, 'containers with unready status: [app]');
    assert.equal(p.status?.containerStatuses?.[0]?.ready, false);
    await clock.advance(19_000);
    assert.equal((await pods().get('slow')).status?.containerStatuses?.[0]?.ready, false);
    await clock.advance(1_000);
    const later = await until(
      'slow',
      (x) => x.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True',
      'Ready after the delay',
    );
    assert.equal(later.status?.containerStatuses?.[0]?.ready, true);
    // The transition time of a condition that held is kept.
    const init = (x: Pod) => x.status?.conditions?.find((c) => c.type === 'Initialized')?.lastTransitionTime;
    assert.equal(init(later), init(p));
  });

  it('holds Ready back until every readiness gate is True', async () => {
    await create('gated', { readinessGates: [{ conditionType: 'example.com/lb' }] });
    const p = await until('gated', (x) => x.status?.phase === 'Running', 'Running');
    const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
    assert.equal(ready?.reason, 'ReadinessGatesNotReady');
    assert.equal(
      ready?.message,
      'corresponding condition of pod readiness gate "example.com/lb" does not exist.',
    );
    const conditions = [...(p.status?.conditions ?? []), { type: 'example.com/lb', status: 'True' }];
    await pods().patch('gated', 'merge', { status: { conditions } }, { subresource: 'status' });
    const later = await until(
      'gated',
      (x) => x.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True',
      'Ready with the gate',
    );
    assert.equal(later.status?.conditions?.[0]?.type, 'example.com/lb');
  });

  it('stops a Pod being deleted, then deletes it with grace 0', async () => {
    await create('doomed', { terminationGracePeriodSeconds: 30 });
    await until('doomed', (x) => x.status?.phase === 'Running', 'Running');
    await pods().delete('doomed');
    const marked = await pods().get('doomed');
    assert.ok(marked.metadata?.deletionTimestamp, 'graceful: still there, marked');
    await clock.advance(500);
    await waitUntil(async () => {
      await clock.advance(0);
      return (await pods().list()).items.length === 0;
    }, 'the Pod gone');
    const deletes = cluster.callsOf('delete', 'pods');
    const last = deletes[deletes.length - 1]?.opts as {
      gracePeriodSeconds?: number;
      preconditions?: { uid?: string };
    };
    assert.equal(last.gracePeriodSeconds, 0);
    assert.equal(last.preconditions?.uid, marked.metadata?.uid);
    // Before it went, its containers were reported terminated.
    const statusWrites = cluster.callsOf('patch', 'pods').length;
    assert.ok(statusWrites >= 2);
    assert.equal(
      clock.now() - Date.parse(marked.metadata?.deletionTimestamp ?? '') < 0,
      true,
      'well inside the grace',
    );
  });

  it('completes a Pod whose restartPolicy allows it when the annotation asks', async () => {
    await create('job-ok', { restartPolicy: 'Never' });
    await create('job-bad', { restartPolicy: 'OnFailure' });
    await create('server', { restartPolicy: 'Always' }, { [EXIT]: '0' });
    await until('job-ok', (x) => x.status?.phase === 'Running', 'job-ok Running');
    await until('job-bad', (x) => x.status?.phase === 'Running', 'job-bad Running');
    await pods().patch('job-ok', 'merge', { metadata: { annotations: { [EXIT]: '0' } } });
    await pods().patch('job-bad', 'merge', { metadata: { annotations: { [EXIT]: '3' } } });
    const ok = await until('job-ok', (x) => x.status?.phase === 'Succeeded', 'Succeeded');
    const bad = await until('job-bad', (x) => x.status?.phase === 'Failed', 'Failed');
    assert.equal(ok.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 0);
    assert.equal(ok.status?.containerStatuses?.[0]?.state?.terminated?.reason, 'Completed');
    assert.equal(ok.status?.containerStatuses?.[0]?.ready, false);
    assert.deepEqual(
      ok.status?.conditions
        ?.filter((c) => c.type === 'Ready' || c.type === 'ContainersReady')
        .map((c) => [c.status, c.reason]),
      [
        ['False', 'PodCompleted'],
        ['False', 'PodCompleted'],
      ],
    );
    assert.equal(bad.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 3);
    assert.equal(bad.status?.containerStatuses?.[0]?.state?.terminated?.reason, 'Error');
    assert.equal(bad.status?.conditions?.find((c) => c.type === 'Ready')?.reason, 'PodFailed');
    const server = await until('server', (x) => x.status?.phase === 'Running', 'server Running');
    assert.equal(server.status?.phase, 'Running');
  });
});
