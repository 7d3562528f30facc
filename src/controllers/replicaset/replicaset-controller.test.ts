// The ReplicaSet controller's reconcile rules, with the fake cluster as the API and hand-driven
// informers as the controller's cache: slow-start creation from the template, expectations that
// never over-create, the 500-Pod burst, ranked scale-down, adoption and release, every status
// field (availability with minReadySeconds and its requeue, terminatingReplicas behind its gate),
// the ReplicaFailure condition and the events recorded.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeEventRecorder } from '../../client/events/fake-recorder.ts';
import { FakeClock } from '../../client/testing/fake-clock.ts';
import { FakeCluster } from '../../client/testing/fake-cluster.ts';
import { forbidden } from '../../machinery/status.ts';
import { PODS } from '../controller-support.ts';
import { controllerRefOf, newControllerRef } from '../workload/controller-ref.ts';
import type { PodLike } from '../workload/pod-state.ts';
import { REPLICASET_CONTROLLER_NAME, replicaSetControllerDescriptor } from './index.ts';
import { ReplicaSetController } from './replicaset-controller.ts';
import { ManualInformer } from './testing.ts';
import { REPLICA_SETS, type ReplicaSet } from './types.ts';

const T0 = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

function setup(opts: { featureGates?: Record<string, boolean>; burstReplicas?: number } = {}) {
  const clock = new FakeClock(T0);
  const cluster = new FakeCluster({ clock });
  const rsInformer = new ManualInformer<ReplicaSet>();
  const podInformer = new ManualInformer<PodLike>();
  const recorder = new FakeEventRecorder();
  const errors: string[] = [];
  const controller = new ReplicaSetController({
    client: cluster,
    replicaSets: rsInformer,
    pods: podInformer,
    recorder,
    log: { info() {}, error: (m) => errors.push(m) },
    clock,
    ...opts,
  });
  const rsClient = cluster.resource<ReplicaSet>(REPLICA_SETS, 'ns');
  const podClient = cluster.resource<PodLike>(PODS, 'ns');

  async function createRS(spec: Partial<NonNullable<ReplicaSet['spec']>> = {}): Promise<ReplicaSet> {
    const rs = await rsClient.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: {
            labels: { app: 'web', tier: 'front' },
            annotations: { note: 'x' },
            finalizers: ['example.com/keep'],
          },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
        ...spec,
      },
    });
    return rsInformer.set(rs);
  }
  /** The controller's cache catches up with the ReplicaSet as stored. */
  const refreshRS = async () => rsInformer.set(await rsClient.get('web'));
  /** The Pod informer sees every Pod the cluster holds. */
  async function observePods(): Promise<PodLike[]> {
    const pods = (await podClient.list()).items;
    for (const p of pods) podInformer.set(p);
    return pods;
  }
  async function addPod(
    rs: ReplicaSet | undefined,
    name: string,
    extra: Partial<PodLike> = {},
    labels: Record<string, string> = { app: 'web', tier: 'front' },
  ) {
    const refs = rs ? [newControllerRef(rs, 'apps/v1', 'ReplicaSet')] : undefined;
    const p = await podClient.create({
      metadata: { name, labels, ...(refs ? { ownerReferences: refs } : {}) },
      spec: { nodeName: 'n1' },
      status: { phase: 'Running' },
      ...extra,
    } as PodLike);
    podInformer.set(p);
    return p;
  }
  const podCreates = () => cluster.callsOf('create', 'pods').length;
  return {
    clock,
    cluster,
    controller,
    recorder,
    rsClient,
    podClient,
    rsInformer,
    podInformer,
    errors,
    createRS,
    refreshRS,
    observePods,
    addPod,
    podCreates,
  };
}

const ready = (since: number) => ({
  phase: 'Running',
  conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(since) }],
});

describe('replicaset controller: descriptor', () => {
  it('is named as upstream', () => {
    assert.equal(replicaSetControllerDescriptor.name, 'replicaset-controller');
    assert.equal(REPLICASET_CONTROLLER_NAME, 'replicaset-controller');
    assert.deepEqual(replicaSetControllerDescriptor.aliases, ['replicaset']);
    assert.equal(replicaSetControllerDescriptor.serviceAccountName, 'replicaset-controller');
    assert.equal(replicaSetControllerDescriptor.enabledByDefault, true);
  });
});

describe('replicaset controller: scale up', () => {
  it('creates the missing Pods from the template, owned by the ReplicaSet', async () => {
    const t = setup();
    const rs = await t.createRS();
    await t.controller.sync('ns/web');
    const pods = (await t.podClient.list()).items;
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.equal(p.metadata?.generateName, 'web-');
      assert.match(String(p.metadata?.name), /^web-/);
      assert.deepEqual(p.metadata?.labels, { app: 'web', tier: 'front' });
      assert.deepEqual(p.metadata?.annotations, { note: 'x' });
      assert.deepEqual(p.metadata?.finalizers, ['example.com/keep']);
      assert.deepEqual(p.metadata?.ownerReferences, [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid: rs.metadata?.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      assert.deepEqual(p.spec, { containers: [{ name: 'c', image: 'nginx' }] });
    }
    assert.deepEqual(t.recorder.reasons(), ['SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulCreate']);
    assert.match(t.recorder.events[0]?.message ?? '', /^Created pod: web-/);
    assert.equal(t.recorder.events[0]?.object.kind, 'ReplicaSet');
  });

  it('creates in slow-start batches and stops at the first batch with a failure', async () => {
    const t = setup();
    await t.createRS({ replicas: 10 });
    let n = 0;
    const stopFailing = t.cluster.intercept((call) => {
      if (call.verb === 'create' && call.resource.resource === 'pods' && ++n >= 2)
        throw forbidden({ group: '', resource: 'pods' }, '', 'exceeded quota');
    });
    await assert.rejects(t.controller.sync('ns/web'), /exceeded quota/);
    assert.equal(t.podCreates(), 3, 'a batch of 1, then a batch of 2 that failed');
    assert.deepEqual(t.recorder.reasons().sort(), ['FailedCreate', 'FailedCreate', 'SuccessfulCreate']);
    assert.match(
      t.recorder.events.find((e) => e.reason === 'FailedCreate')?.message ?? '',
      /^Error creating: .*exceeded quota/,
    );
    // The creations never made are not waited for; the one made is.
    assert.deepEqual(t.controller.expectations.pending('ns/web'), { add: 1, del: 0 });
    const failed = (await t.rsClient.get('web')).status;
    assert.equal(failed?.conditions?.length, 1);
    const cond = failed?.conditions?.[0];
    assert.equal(cond?.type, 'ReplicaFailure');
    assert.equal(cond?.status, 'True');
    assert.equal(cond?.reason, 'FailedCreate');
    assert.match(cond?.message ?? '', /exceeded quota/);
    assert.equal(cond?.lastTransitionTime, iso(T0));

    // The quota lifts: once the created Pod is observed, the rest follows and the condition goes.
    stopFailing();
    await t.refreshRS();
    await t.observePods();
    await t.controller.sync('ns/web');
    assert.equal((await t.podClient.list()).items.length, 10);
    await t.observePods();
    await t.refreshRS();
    await t.controller.sync('ns/web');
    const healed = (await t.rsClient.get('web')).status;
    assert.equal(healed?.conditions, undefined);
    assert.equal(healed?.replicas, 10);
  });

  it('never over-creates while its creations are unobserved, until the expectations expire', async () => {
    const t = setup();
    await t.createRS({ replicas: 4 });
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 4);
    await t.refreshRS();
    // The cache has seen none of them yet: a second sync must not create again.
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 4);
    // Seeing some but not all is still not enough.
    const pods = (await t.podClient.list()).items;
    t.podInformer.set(pods[0] as PodLike);
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 4);
    // All seen: nothing to do.
    await t.observePods();
    assert.equal(t.controller.expectations.satisfied('ns/web'), true);
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 4);
  });

  it('trusts its cache again once expectations are five minutes old', async () => {
    const t = setup();
    await t.createRS({ replicas: 2 });
    await t.controller.sync('ns/web');
    await t.refreshRS();
    t.clock.step(5 * 60 * 1000 + 1);
    // The watch lost the adds: after the timeout the controller acts on what it sees.
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 4);
  });

  it('creates at most 500 Pods per sync', async () => {
    const t = setup();
    await t.createRS({ replicas: 520 });
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 500);
    await t.observePods();
    await t.refreshRS();
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 520);
  });

  it('does nothing for a ReplicaSet being deleted, or gone', async () => {
    const t = setup();
    const rs = await t.createRS();
    t.rsInformer.set({ ...rs, metadata: { ...rs.metadata, deletionTimestamp: iso(T0) } });
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 0);
    t.rsInformer.remove(rs);
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 0);
  });
});

describe('replicaset controller: scale down', () => {
  it('deletes the Pods upstream ranks first, and waits for the deletions to be seen', async () => {
    const t = setup();
    const rs = await t.createRS({ replicas: 2 });
    await t.addPod(rs, 'old-ready', { status: ready(T0 - 3_600_000) });
    await t.addPod(rs, 'new-ready', { status: ready(T0 - 1000) });
    await t.addPod(rs, 'unready', { status: { phase: 'Running' } });
    await t.addPod(rs, 'pending', { status: { phase: 'Pending' } });
    await t.controller.sync('ns/web');
    const deleted = t.cluster.callsOf('delete', 'pods').map((c) => c.name);
    assert.deepEqual(deleted.sort(), ['pending', 'unready']);
    assert.deepEqual(t.recorder.reasons(), ['SuccessfulDelete', 'SuccessfulDelete']);
    assert.ok(t.recorder.events.some((e) => e.message === 'Deleted pod: pending'));

    // Not yet seen gone: no further deletes even though the cache still shows four Pods.
    await t.refreshRS();
    await t.controller.sync('ns/web');
    assert.equal(t.cluster.callsOf('delete', 'pods').length, 2);
    // A graceful deletion seen as an update counts, once.
    const unready = t.podInformer.lister.get('ns/unready') as PodLike;
    t.podInformer.set({
      ...unready,
      metadata: { ...unready.metadata, deletionTimestamp: iso(T0), resourceVersion: '999' },
    });
    t.podInformer.remove(unready);
    assert.equal(t.controller.expectations.satisfied('ns/web'), false);
    t.podInformer.remove(t.podInformer.lister.get('ns/pending') as PodLike);
    assert.equal(t.controller.expectations.satisfied('ns/web'), true);
    await t.controller.sync('ns/web');
    assert.equal(t.cluster.callsOf('delete', 'pods').length, 2);
    const status = (await t.rsClient.get('web')).status;
    assert.equal(status?.replicas, 2);
    assert.equal(status?.readyReplicas, 2);
  });

  it('prefers Pods on nodes crowded with their siblings', async () => {
    const t = setup();
    const rs = await t.createRS({ replicas: 1 });
    await t.addPod(rs, 'alone', { spec: { nodeName: 'n1' }, status: ready(T0 - 1000) } as Partial<PodLike>);
    await t.addPod(rs, 'crowded', { spec: { nodeName: 'n2' }, status: ready(T0 - 1000) } as Partial<PodLike>);
    // A sibling ReplicaSet of the same Deployment with a Pod on n2.
    const deployment = { metadata: { name: 'd', uid: 'd-uid' } };
    const sibling = await t.rsClient.create({
      metadata: { name: 'sib', ownerReferences: [newControllerRef(deployment, 'apps/v1', 'Deployment')] },
      spec: { replicas: 1, selector: { matchLabels: { app: 'sib' } } },
    });
    t.rsInformer.set(sibling);
    // Our ReplicaSet belongs to the same Deployment.
    const owned = await t.rsClient.update({
      ...(await t.rsClient.get('web')),
      metadata: {
        ...(await t.rsClient.get('web')).metadata,
        ownerReferences: [newControllerRef(deployment, 'apps/v1', 'Deployment')],
      },
    });
    t.rsInformer.set(owned);
    await t.addPod(sibling, 'sib-pod', { spec: { nodeName: 'n2' }, status: ready(T0) } as Partial<PodLike>, {
      app: 'sib',
    });
    await t.controller.sync('ns/web');
    assert.deepEqual(
      t.cluster.callsOf('delete', 'pods').map((c) => c.name),
      ['crowded'],
    );
  });

  it('reports a failed delete as FailedDelete, and ignores a Pod already gone', async () => {
    const t = setup();
    const rs = await t.createRS({ replicas: 0 });
    await t.addPod(rs, 'a');
    const gone = await t.addPod(rs, 'b');
    await t.podClient.delete(String(gone.metadata?.name));
    t.cluster.failNext('delete', forbidden({ group: '', resource: 'pods' }, 'a', 'no'), { resource: 'pods' });
    await assert.rejects(t.controller.sync('ns/web'), /unable to delete pods/);
    assert.deepEqual(t.recorder.reasons(), ['FailedDelete']);
    assert.equal(t.controller.expectations.satisfied('ns/web'), true, 'neither deletion will be observed');
    const cond = (await t.rsClient.get('web')).status?.conditions?.[0];
    assert.equal(cond?.reason, 'FailedDelete');
  });
});

describe('replicaset controller: adoption', () => {
  it('adopts matching orphans, releases Pods that stopped matching, leaves other owners alone', async () => {
    const t = setup();
    const rs = await t.createRS({ replicas: 3 });
    await t.addPod(undefined, 'orphan');
    await t.addPod(rs, 'strayed', {}, { app: 'other' });
    const other = { metadata: { name: 'x', uid: 'x-uid' } };
    await t.addPod(other as ReplicaSet, 'foreign');
    await t.addPod(rs, 'mine');
    await t.controller.sync('ns/web');
    assert.equal(controllerRefOf(await t.podClient.get('orphan'))?.uid, rs.metadata?.uid);
    assert.equal(controllerRefOf(await t.podClient.get('strayed')), undefined);
    assert.equal(controllerRefOf(await t.podClient.get('foreign'))?.uid, 'x-uid');
    // Two owned (orphan, mine): one more created.
    assert.equal(t.podCreates() - 4, 1);
    const status = (await t.rsClient.get('web')).status;
    assert.equal(status?.replicas, 2);
  });

  it('adopts nothing when a fresh read shows the ReplicaSet replaced', async () => {
    const t = setup();
    const rs = await t.createRS({ replicas: 1 });
    await t.addPod(undefined, 'orphan');
    await t.rsClient.delete('web');
    await t.rsClient.create({ ...rs, metadata: { name: 'web' } });
    await assert.rejects(t.controller.sync('ns/web'), /is gone/);
    assert.equal(controllerRefOf(await t.podClient.get('orphan')), undefined);
  });

  it('queues the ReplicaSets that could adopt a new orphan', () => {
    const t = setup();
    return (async () => {
      await t.createRS();
      while (t.controller.queue.len() > 0) {
        const got = await t.controller.queue.get();
        if (!got.shutdown) t.controller.queue.done(got.item);
      }
      await t.addPod(undefined, 'orphan');
      assert.equal(t.controller.queue.len(), 1);
    })();
  });
});

describe('replicaset controller: status', () => {
  it('counts replicas, fully labeled, ready and available Pods, with observedGeneration, through status', async () => {
    const t = setup();
    const rs = await t.createRS({ replicas: 4, minReadySeconds: 10 });
    await t.addPod(rs, 'available', { status: ready(T0 - 20_000) });
    await t.addPod(rs, 'just-ready', { status: ready(T0 - 5_000) });
    await t.addPod(rs, 'unready');
    await t.addPod(rs, 'partly-labeled', { status: ready(T0 - 60_000) }, { app: 'web' });
    await t.addPod(rs, 'finished', { status: { phase: 'Succeeded' } });
    await t.controller.sync('ns/web');
    assert.equal(t.podCreates(), 5, 'the four active Pods are enough');
    const got = await t.rsClient.get('web');
    assert.deepEqual(got.status, {
      replicas: 4,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 2,
      observedGeneration: 1,
    });
    const statusWrites = t.cluster.callsOf('update', 'replicasets');
    assert.equal(statusWrites.length, 1);
    assert.equal(statusWrites[0]?.opts?.subresource, 'status');
    // Unchanged: no second write.
    t.rsInformer.set(got);
    await t.controller.sync('ns/web');
    assert.equal(t.cluster.callsOf('update', 'replicasets').length, 1);
  });

  it('looks again after minReadySeconds when every Pod is ready but not all available', async () => {
    const t = setup();
    const rs = await t.createRS({ replicas: 1, minReadySeconds: 30 });
    await t.addPod(rs, 'p', { status: ready(T0 - 1000) });
    while (t.controller.queue.len() > 0) {
      const got = await t.controller.queue.get();
      if (!got.shutdown) t.controller.queue.done(got.item);
    }
    await t.controller.sync('ns/web');
    assert.equal((await t.rsClient.get('web')).status?.availableReplicas, undefined);
    assert.equal(t.controller.queue.waitingLen(), 1);
    t.clock.step(30_000);
    assert.equal(t.controller.queue.len(), 1);
    t.rsInformer.set(await t.rsClient.get('web'));
    await t.controller.sync('ns/web');
    assert.equal((await t.rsClient.get('web')).status?.availableReplicas, 1);
  });

  it('queues the owner minReadySeconds after a Pod becomes ready', async () => {
    const t = setup();
    const rs = await t.createRS({ replicas: 1, minReadySeconds: 5 });
    const p = await t.addPod(rs, 'p');
    t.podInformer.set({ ...p, metadata: { ...p.metadata, resourceVersion: '100' }, status: ready(T0) });
    assert.equal(t.controller.queue.waitingLen(), 1);
  });

  it('counts a terminating Pod as not active, and reports it only behind the feature gate', async () => {
    for (const gate of [false, true]) {
      const t = setup({ featureGates: { DeploymentReplicaSetTerminatingReplicas: gate } });
      const rs = await t.createRS({ replicas: 1 });
      await t.addPod(rs, 'running', { status: ready(T0 - 1000) });
      const leaving = await t.addPod(rs, 'leaving', { status: ready(T0 - 1000) });
      t.podInformer.set({
        ...leaving,
        metadata: { ...leaving.metadata, deletionTimestamp: iso(T0), resourceVersion: '50' },
      });
      await t.controller.sync('ns/web');
      assert.equal(t.podCreates(), 2, 'no replacement for the terminating Pod is needed: one active');
      const status = (await t.rsClient.get('web')).status;
      assert.equal(status?.replicas, 1);
      assert.equal(status?.terminatingReplicas, gate ? 1 : undefined);
    }
  });
});
