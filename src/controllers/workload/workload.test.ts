// The shared workload helpers: expectations and their five-minute expiry, slow-start batches, Pod
// state predicates, the deletion ranking, and claiming (adopt, release, leave alone) against the
// fake cluster.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../../client/testing/fake-clock.ts';
import { FakeCluster } from '../../client/testing/fake-cluster.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { ApiError } from '../../machinery/status.ts';
import { podDeletionCostAnnotation } from '../../naming/pod-deletion-cost.ts';
import { namingProfile } from '../../naming/profile.ts';
import { claimObjects, controllerRefOf, newControllerRef, recheckOwner } from './controller-ref.ts';
import { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS, UidTrackingExpectations } from './expectations.ts';
import { podsToDelete, rankPodsForDeletion } from './pod-ranking.ts';
import { isPodActive, isPodAvailable, isPodReady, isPodTerminating, type PodLike } from './pod-state.ts';
import { slowStartBatch } from './slow-start.ts';

const T0 = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

function pod(
  name: string,
  over: Partial<{
    node: string;
    phase: string;
    ready: number | false;
    restarts: number;
    created: number;
    uid: string;
    annotations: Record<string, string>;
    deleting: boolean;
  }> = {},
): PodLike {
  const conditions =
    over.ready === undefined || over.ready === false
      ? [{ type: 'Ready', status: 'False' }]
      : [{ type: 'Ready', status: 'True', lastTransitionTime: iso(over.ready) }];
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: over.uid ?? `uid-${name}`,
      creationTimestamp: iso(over.created ?? T0),
      annotations: over.annotations,
      ...(over.deleting ? { deletionTimestamp: iso(T0) } : {}),
    },
    spec: { nodeName: over.node ?? 'n1' },
    status: {
      phase: over.phase ?? 'Running',
      conditions,
      containerStatuses: [{ name: 'c', restartCount: over.restarts ?? 0 }],
    },
  };
}

describe('expectations', () => {
  it('holds a key back until each creation and deletion is observed', () => {
    const e = new ControllerExpectations();
    assert.equal(e.satisfied('a'), true, 'nothing recorded');
    e.expectCreations('a', 2);
    assert.equal(e.satisfied('a'), false);
    e.creationObserved('a');
    assert.equal(e.satisfied('a'), false);
    e.creationObserved('a');
    assert.equal(e.satisfied('a'), true);
    e.expectDeletions('a', 1);
    assert.equal(e.satisfied('a'), false);
    e.deletionObserved('a');
    assert.equal(e.satisfied('a'), true);
    e.expectCreations('a', 1);
    e.delete('a');
    assert.equal(e.satisfied('a'), true, 'deleted');
  });

  it('expires five minutes after they were set', () => {
    const clock = new FakeClock();
    const e = new ControllerExpectations({ clock });
    e.expectCreations('a', 3);
    clock.step(EXPECTATIONS_TIMEOUT_MS);
    assert.equal(e.satisfied('a'), false, 'exactly at the timeout');
    clock.step(1);
    assert.equal(e.satisfied('a'), true);
    assert.equal(EXPECTATIONS_TIMEOUT_MS, 300_000);
  });

  it('counts the deletion of each tracked key once', () => {
    const e = new UidTrackingExpectations();
    e.expectDeletionsOf('rs', ['ns/p1', 'ns/p2']);
    e.deletionOfObserved('rs', 'ns/p1');
    e.deletionOfObserved('rs', 'ns/p1');
    e.deletionOfObserved('rs', 'ns/other');
    assert.equal(e.satisfied('rs'), false);
    assert.deepEqual(e.pending('rs'), { add: 0, del: 1 });
    e.deletionOfObserved('rs', 'ns/p2');
    assert.equal(e.satisfied('rs'), true);
  });
});

describe('slowStartBatch', () => {
  it('runs batches of 1, 2, 4, ... up to the count', async () => {
    const batches: number[] = [];
    let inFlight = 0;
    let batchPeak = 0;
    const r = await slowStartBatch(10, 1, async () => {
      inFlight++;
      batchPeak = Math.max(batchPeak, inFlight);
      await new Promise((res) => setImmediate(res));
      inFlight--;
      if (inFlight === 0) {
        batches.push(batchPeak);
        batchPeak = 0;
      }
    });
    assert.deepEqual(r, { successes: 10 });
    assert.deepEqual(batches, [1, 2, 4, 3]);
  });

  it('stops after the first batch with a failure, counting that batch successes', async () => {
    let calls = 0;
    const r = await slowStartBatch(20, 1, async () => {
      calls++;
      // The 5th call is in the third batch (calls 4..7).
      if (calls === 5) throw new Error('quota');
    });
    assert.equal(calls, 7);
    assert.equal(r.successes, 6);
    assert.equal((r.error as Error).message, 'quota');
  });

  it('does nothing for a count of 0', async () => {
    let calls = 0;
    assert.deepEqual(await slowStartBatch(0, 1, async () => void calls++), { successes: 0 });
    assert.equal(calls, 0);
  });
});

describe('pod state', () => {
  it('tells active, terminating, ready and available Pods', () => {
    const now = new Date(T0 + 10_000);
    const p = pod('a', { ready: T0 });
    assert.equal(isPodActive(p), true);
    assert.equal(isPodTerminating(p), false);
    assert.equal(isPodReady(p), true);
    assert.equal(isPodAvailable(p, 0, now), true);
    assert.equal(isPodAvailable(p, 9, now), true);
    assert.equal(isPodAvailable(p, 10, now), false, 'ready for exactly minReadySeconds is not yet available');
    const deleting = pod('b', { deleting: true });
    assert.equal(isPodActive(deleting), false);
    assert.equal(isPodTerminating(deleting), true);
    const done = pod('c', { phase: 'Succeeded', deleting: true });
    assert.equal(isPodActive(done), false);
    assert.equal(isPodTerminating(done), false, 'a finished Pod is not terminating');
    assert.equal(isPodReady(pod('d')), false);
    assert.equal(isPodAvailable(pod('d'), 0, now), false);
  });
});

describe('deletion ranking', () => {
  const now = T0 + 86_400_000;
  const order = (pods: PodLike[], related: PodLike[] = pods, opts = {}) =>
    rankPodsForDeletion(pods, related, { now, ...opts }).map((p) => p.metadata?.name);

  it('puts unassigned before assigned, then Pending < Unknown < Running, then not ready', () => {
    const pods = [
      pod('running-ready', { ready: T0 }),
      pod('running', {}),
      pod('unknown', { phase: 'Unknown' }),
      pod('pending', { phase: 'Pending' }),
      pod('unassigned', { node: '', phase: 'Running', ready: T0 }),
    ];
    assert.deepEqual(order(pods), ['unassigned', 'pending', 'unknown', 'running', 'running-ready']);
  });

  it('honours pod-deletion-cost, lower first', () => {
    const key = podDeletionCostAnnotation(namingProfile('spec'));
    const pods = [
      pod('cheap', { annotations: { [key]: '-5' } }),
      pod('dear', { annotations: { [key]: '10' } }),
      pod('plain'),
    ];
    assert.deepEqual(order(pods), ['cheap', 'plain', 'dear']);
    assert.deepEqual(order(pods, pods, { podDeletionCost: false }).length, 3);
  });

  it('prefers Pods doubled up on a node with related Pods', () => {
    const pods = [pod('alone', { node: 'n1' }), pod('crowded', { node: 'n2' })];
    const related = [...pods, pod('sibling', { node: 'n2' })];
    assert.deepEqual(order(pods, related), ['crowded', 'alone']);
    // A terminating sibling does not count.
    const gone = [...pods, pod('leaving', { node: 'n2', deleting: true })];
    assert.deepEqual(order(pods, gone, { logarithmicScaleDown: false }), ['alone', 'crowded'].sort());
  });

  it('then recently ready before long ready, more restarts first, newer first', () => {
    const exact = { logarithmicScaleDown: false };
    assert.deepEqual(
      order([pod('old-ready', { ready: T0 }), pod('new-ready', { ready: T0 + 1000 })], undefined, exact),
      ['new-ready', 'old-ready'],
    );
    assert.deepEqual(order([pod('calm', { restarts: 0 }), pod('flaky', { restarts: 3 })], undefined, exact), [
      'flaky',
      'calm',
    ]);
    assert.deepEqual(
      order([pod('older', { created: T0 }), pod('newer', { created: T0 + 5000 })], undefined, exact),
      ['newer', 'older'],
    );
  });

  it('compares ages in logarithmic buckets, ties broken by uid', () => {
    // Ages of 24h and 24h - 1s fall in the same power-of-two bucket: uid decides.
    const pods = [pod('x', { created: T0 + 1000, uid: 'b' }), pod('y', { created: T0, uid: 'a' })];
    assert.deepEqual(order(pods), ['y', 'x']);
    // An age of 1 hour is in a much lower bucket than 24 hours: newer first.
    const far = [pod('day', { created: T0, uid: 'a' }), pod('hour', { created: now - 3_600_000, uid: 'b' })];
    assert.deepEqual(order(far), ['hour', 'day']);
  });

  it('picks only what is deleted', () => {
    const pods = [pod('a', { ready: T0 }), pod('b')];
    assert.deepEqual(
      podsToDelete(pods, pods, 1, { now }).map((p) => p.metadata?.name),
      ['b'],
    );
    assert.equal(podsToDelete(pods, pods, 5, { now }).length, 2);
  });
});

describe('claimObjects', () => {
  const PODS = { group: '', version: 'v1', resource: 'pods' };
  const owner: ApiObject = { metadata: { name: 'rs', namespace: 'ns', uid: 'owner-uid' } };

  async function setup() {
    const cluster = new FakeCluster();
    const client = cluster.resource(PODS, 'ns');
    const mk = (name: string, labels: Record<string, string>, refs?: unknown[]) =>
      client.create({ metadata: { name, labels, ...(refs ? { ownerReferences: refs } : {}) } });
    return { cluster, client, mk };
  }
  const opts = (client: ReturnType<FakeCluster['resource']>, o: ApiObject = owner) => ({
    owner: o,
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    matches: (l: Record<string, string>) => l.app === 'web',
    client,
    canAdopt: async () => {},
  });

  it('adopts matching orphans, keeps its own, releases non-matching, leaves others alone', async () => {
    const { client, mk } = await setup();
    const mine = newControllerRef(owner, 'apps/v1', 'ReplicaSet');
    const other = { ...mine, uid: 'other', name: 'other' };
    const pods = [
      await mk('orphan', { app: 'web' }, [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'cm-uid' },
      ]),
      await mk('owned', { app: 'web' }, [mine]),
      await mk('strayed', { app: 'db' }, [mine]),
      await mk('foreign', { app: 'web' }, [other]),
      await mk('unrelated', { app: 'db' }),
    ];
    const claimed = await claimObjects(pods, opts(client));
    assert.deepEqual(claimed.map((p) => p.metadata?.name).sort(), ['orphan', 'owned']);
    const orphan = await client.get('orphan');
    assert.equal(controllerRefOf(orphan)?.uid, 'owner-uid');
    assert.equal(orphan.metadata?.ownerReferences?.length, 2, 'the other owner reference is kept');
    const strayed = await client.get('strayed');
    assert.deepEqual(strayed.metadata?.ownerReferences, []);
    assert.equal(controllerRefOf(await client.get('foreign'))?.uid, 'other');
    assert.equal((await client.get('unrelated')).metadata?.ownerReferences, undefined);
  });

  it('tests the uid: an object replaced under its name is not adopted', async () => {
    const { client, mk } = await setup();
    const stale = await mk('p', { app: 'web' });
    await client.delete('p');
    await mk('p', { app: 'web' });
    await assert.rejects(claimObjects([stale], opts(client)));
    assert.equal(controllerRefOf(await client.get('p')), undefined);
  });

  it('adopts nothing when the owner is being deleted or canAdopt refuses', async () => {
    const { cluster, client, mk } = await setup();
    const p = await mk('p', { app: 'web' });
    const deleting = { metadata: { ...owner.metadata, deletionTimestamp: iso(T0) } };
    assert.deepEqual(await claimObjects([p], opts(client, deleting)), []);
    const refuse = {
      ...opts(client),
      canAdopt: recheckOwner(async () => ({ metadata: { uid: 'new-uid' } }), owner, 'ReplicaSet ns/rs'),
    };
    await assert.rejects(claimObjects([p], refuse), /original ReplicaSet ns\/rs is gone/);
    assert.equal(cluster.callsOf('patch').length, 0);
  });

  it('ignores a release of an object already gone', async () => {
    const { client, mk } = await setup();
    const mine = newControllerRef(owner, 'apps/v1', 'ReplicaSet');
    const p = await mk('p', { app: 'db' }, [mine]);
    await client.delete('p');
    assert.deepEqual(await claimObjects([p], opts(client)), []);
  });

  it('ignores an adoption of an object already gone', async () => {
    const { cluster, client, mk } = await setup();
    const p = await mk('p', { app: 'web' });
    cluster.failNext(
      'patch',
      new ApiError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        code: 404,
        reason: 'NotFound',
        message: 'gone',
      }),
    );
    assert.deepEqual(await claimObjects([p], opts(client)), []);
  });
});
