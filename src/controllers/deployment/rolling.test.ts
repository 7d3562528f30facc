// The RollingUpdate strategy on the fake cluster, one sync at a time, with the ReplicaSets' status
// moved by hand as their controller and the nodes would: a new Deployment gets one ReplicaSet at
// full size; an image change rolls over step by step, never running more than replicas + maxSurge
// nor fewer available than replicas - maxUnavailable, with upstream's events, revisions and
// conditions.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getCondition } from './conditions.ts';
import { DeploymentFixture, deploymentObject, podTemplate } from './testing.ts';
import { type ReplicaSet, rsReplicas } from './types.ts';

const total = (rss: ReplicaSet[], f: (rs: ReplicaSet) => number) => rss.reduce((n, rs) => n + f(rs), 0);

describe('deployment controller: rolling update', () => {
  const f = new DeploymentFixture();
  before(() => f.start());
  after(() => f.stop());

  it('creates the first ReplicaSet at full size, named by the template hash', async () => {
    await f.deployments.create(
      deploymentObject('web', {
        replicas: 4,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      }),
    );
    await f.sync('web');
    const [rs] = await f.owned('web');
    const hash = rs.metadata?.labels?.[f.names.podTemplateHashLabel] ?? '';
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(rs.metadata?.name, `web-${hash}`);
    assert.equal(rs.spec?.selector?.matchLabels?.[f.names.podTemplateHashLabel], hash);
    assert.equal(rs.spec?.template?.metadata?.labels?.[f.names.podTemplateHashLabel], hash);
    assert.equal(rsReplicas(rs), 4);
    assert.equal(rs.metadata?.annotations?.[f.names.revision], '1');
    assert.equal(rs.metadata?.annotations?.[f.names.desiredReplicas], '4');
    assert.equal(rs.metadata?.annotations?.[f.names.maxReplicas], '5');
    assert.deepEqual(f.messages('ScalingReplicaSet'), [`Scaled up replica set web-${hash} from 0 to 4`]);
    const d = await f.get('web');
    assert.equal(d.metadata?.annotations?.[f.names.revision], '1');
    const progressing = getCondition(d.status, 'Progressing');
    assert.equal(progressing?.reason, 'NewReplicaSetCreated');
    assert.equal(progressing?.message, `Created new replica set "web-${hash}"`);
    assert.equal(getCondition(d.status, 'Available')?.reason, 'MinimumReplicasUnavailable');
    assert.equal(f.recorder.events[0].object.metadata?.name, 'web');
  });

  it('reports every status field and completes once the Pods are available', async () => {
    await f.simulate('ready');
    await f.sync('web');
    const d = await f.get('web');
    assert.equal(d.status?.observedGeneration, 1);
    assert.equal(d.status?.replicas, 4);
    assert.equal(d.status?.updatedReplicas, 4);
    assert.equal(d.status?.readyReplicas, 4);
    assert.equal(d.status?.availableReplicas, 4);
    assert.equal(d.status?.unavailableReplicas, undefined);
    assert.equal(d.status?.terminatingReplicas, undefined, 'the gate is off');
    assert.equal(getCondition(d.status, 'Available')?.status, 'True');
    assert.equal(getCondition(d.status, 'Available')?.reason, 'MinimumReplicasAvailable');
    const [rs] = await f.owned('web');
    assert.equal(getCondition(d.status, 'Progressing')?.reason, 'NewReplicaSetAvailable');
    assert.equal(
      getCondition(d.status, 'Progressing')?.message,
      `ReplicaSet "${rs.metadata?.name}" has successfully progressed.`,
    );
  });

  it('rolls an image change over within maxSurge and maxUnavailable', async () => {
    const before = f.recorder.events.length;
    const [oldRS] = await f.owned('web');
    f.clock.step(60_000);
    await f.edit('web', { template: podTemplate('img:2') });
    const maxTotal = 5;
    const minAvailable = 3;
    let steps = 0;
    for (; steps < 20; steps++) {
      await f.syncRetrying('web');
      const rss = await f.owned('web');
      assert.ok(total(rss, rsReplicas) <= maxTotal, `at most ${maxTotal} replicas wanted at step ${steps}`);
      await f.simulate('created');
      const afterCreate = await f.owned('web');
      const available = total(afterCreate, (rs) => rs.status?.availableReplicas ?? 0);
      assert.ok(
        available >= minAvailable,
        `at least ${minAvailable} available at step ${steps}, got ${available}`,
      );
      assert.ok(total(afterCreate, (rs) => rs.status?.replicas ?? 0) <= maxTotal);
      await f.simulate('ready');
      const newRS = afterCreate.find((rs) => rs.metadata?.uid !== oldRS.metadata?.uid);
      if (
        newRS !== undefined &&
        rsReplicas(newRS) === 4 &&
        afterCreate.every((rs) => rs === newRS || rsReplicas(rs) === 0)
      )
        break;
    }
    assert.ok(steps > 1, 'took more than one step');
    await f.sync('web');
    const rss = await f.owned('web');
    assert.equal(rss.length, 2);
    const [first, second] = rss;
    assert.equal(first.metadata?.uid, oldRS.metadata?.uid);
    assert.equal(rsReplicas(first), 0);
    assert.equal(rsReplicas(second), 4);
    assert.equal(second.metadata?.annotations?.[f.names.revision], '2');
    const d = await f.get('web');
    assert.equal(d.metadata?.annotations?.[f.names.revision], '2');
    assert.equal(d.status?.updatedReplicas, 4);
    assert.equal(d.status?.replicas, 4);
    assert.equal(getCondition(d.status, 'Progressing')?.reason, 'NewReplicaSetAvailable');
    const events = f.recorder.events.slice(before).map((e) => e.message);
    // The first step surges one new Pod and, availability allowing, takes one old one down.
    assert.equal(events[0], `Scaled up replica set ${second.metadata?.name} from 0 to 1`);
    assert.equal(events[1], `Scaled down replica set ${first.metadata?.name} from 4 to 3`);
    assert.ok(events.every((m) => /^Scaled (up|down) replica set \S+ from \d+ to \d+$/.test(m)));
  });

  it('scales old Pods that are not available down first, even below minimum availability', async () => {
    await f.deployments.create(
      deploymentObject('heal', {
        replicas: 4,
        selector: { matchLabels: { app: 'heal' } },
        template: podTemplate('img:1', { app: 'heal' }),
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      }),
    );
    await f.sync('heal');
    const [current] = await f.owned('heal');
    await f.simulate('ready', (rs) => rs.metadata?.uid === current.metadata?.uid);
    // Two of its Pods fail: 2 of 4 available, below the 3 that must stay.
    await f.setStatus(current, { availableReplicas: 2, readyReplicas: 2 });
    f.clock.step(60_000);
    await f.edit('heal', { template: podTemplate('img:2', { app: 'heal' }) });
    const before = f.recorder.events.length;
    await f.sync('heal');
    const msgs = f.recorder.events.slice(before).map((e) => e.message);
    // No surge: the new ReplicaSet starts empty. One Pod may go (4 - 3 - 0), and an unavailable one
    // costs nothing, so it goes although availability is already short (cleanupUnhealthyReplicas).
    assert.deepEqual(msgs, [`Scaled down replica set ${current.metadata?.name} from 4 to 3`]);
    const rss = await f.owned('heal');
    assert.equal(rss.length, 2);
    assert.equal(rsReplicas(rss[1]), 0);
  });

  it('spreads a resize in the middle of a rollout over the ReplicaSets in proportion', async () => {
    await f.deployments.create(
      deploymentObject('grow', {
        replicas: 10,
        selector: { matchLabels: { app: 'grow' } },
        template: podTemplate('img:1', { app: 'grow' }),
      }),
    );
    await f.rollout('grow');
    f.clock.step(60_000);
    await f.edit('grow', { template: podTemplate('img:2', { app: 'grow' }) });
    await f.sync('grow');
    let [old, fresh] = await f.owned('grow');
    // 10 + 3 surge: the new one at 3, the old one down by the 2 that may be unavailable.
    assert.deepEqual([rsReplicas(old), rsReplicas(fresh)], [8, 3]);
    const before = f.recorder.events.length;
    await f.edit('grow', { replicas: 20 });
    await f.sync('grow');
    [old, fresh] = await f.owned('grow');
    // 25 allowed (20 + 5 surge), 14 to add: 8 of 13 -> 15, 3 of 13 -> 6, the leftover 4 to the largest.
    assert.deepEqual([rsReplicas(old), rsReplicas(fresh)], [19, 6]);
    for (const rs of [old, fresh]) {
      assert.equal(rs.metadata?.annotations?.[f.names.desiredReplicas], '20');
      assert.equal(rs.metadata?.annotations?.[f.names.maxReplicas], '25');
    }
    assert.deepEqual(
      f.recorder.events
        .slice(before)
        .map((e) => e.message)
        .sort(),
      [
        `Scaled up replica set ${fresh.metadata?.name} from 3 to 6`,
        `Scaled up replica set ${old.metadata?.name} from 8 to 19`,
      ],
    );
  });
});
