// Progress and pausing on the fake cluster with a fake clock: a rollout without progress is looked
// at again when progressDeadlineSeconds falls due and then reports ProgressDeadlineExceeded; time
// spent paused does not count (DeploymentPaused, then DeploymentResumed restarts the clock); a
// paused Deployment starts no rollout but is still scaled; ReplicaFailure is copied from the
// ReplicaSets; terminatingReplicas appears only with its gate.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { getCondition } from './conditions.ts';
import { DeploymentFixture, deploymentObject, podTemplate } from './testing.ts';
import { rsReplicas } from './types.ts';

async function drain(f: DeploymentFixture): Promise<void> {
  await f.settle();
  while (f.controller.queue.len() > 0) {
    const next = await f.controller.queue.get();
    if (!next.shutdown) f.controller.queue.done(next.item);
  }
}

describe('deployment controller: progress deadline', () => {
  const f = new DeploymentFixture();
  before(() => f.start());
  after(() => f.stop());
  const app = (name: string) => ({
    selector: { matchLabels: { app: name } },
    template: podTemplate('img:1', { app: name }),
  });

  it('requeues a stuck rollout for its deadline and then reports ProgressDeadlineExceeded', async () => {
    await f.deployments.create(
      deploymentObject('slow', { replicas: 2, progressDeadlineSeconds: 30, ...app('slow') }),
    );
    await f.sync('slow');
    await f.simulate('created'); // Pods that never become ready
    await f.sync('slow');
    let d = await f.get('slow');
    assert.equal(getCondition(d.status, 'Progressing')?.reason, 'ReplicaSetUpdated');
    await drain(f);
    // Nothing moves: the sync finds nothing new and schedules a look at the deadline.
    await f.sync('slow');
    assert.equal(f.controller.queue.len(), 0);
    assert.equal(f.controller.queue.waitingLen(), 1);
    f.clock.step(20_000);
    assert.equal(f.controller.queue.len(), 0, 'not before the deadline');
    f.clock.step(12_000);
    await waitUntil(() => f.controller.queue.len() === 1, 'the deployment queued at its deadline');
    await f.sync('slow');
    d = await f.get('slow');
    const [rs] = await f.owned('slow');
    const cond = getCondition(d.status, 'Progressing');
    assert.equal(cond?.status, 'False');
    assert.equal(cond?.reason, 'ProgressDeadlineExceeded');
    assert.equal(cond?.message, `ReplicaSet "${rs.metadata?.name}" has timed out progressing.`);
    assert.equal(getCondition(d.status, 'Available')?.status, 'False');
    assert.equal(d.status?.unavailableReplicas, 2);
  });

  it('does not count time spent paused', async () => {
    await f.deployments.create(
      deploymentObject('pausy', { replicas: 2, progressDeadlineSeconds: 30, ...app('pausy') }),
    );
    await f.sync('pausy');
    await f.simulate('created');
    await f.sync('pausy');
    await f.edit('pausy', { paused: true });
    await f.sync('pausy');
    let cond = getCondition((await f.get('pausy')).status, 'Progressing');
    assert.equal(cond?.status, 'Unknown');
    assert.equal(cond?.reason, 'DeploymentPaused');
    assert.equal(cond?.message, 'Deployment is paused');
    f.clock.step(600_000);
    await f.sync('pausy');
    assert.equal(getCondition((await f.get('pausy')).status, 'Progressing')?.reason, 'DeploymentPaused');

    await f.edit('pausy', { paused: false });
    await f.sync('pausy');
    cond = getCondition((await f.get('pausy')).status, 'Progressing');
    assert.equal(cond?.reason, 'DeploymentResumed', 'the ten paused minutes did not count');
    assert.equal(cond?.message, 'Deployment is resumed');
    f.clock.step(31_000);
    await f.sync('pausy');
    assert.equal(
      getCondition((await f.get('pausy')).status, 'Progressing')?.reason,
      'ProgressDeadlineExceeded',
    );
  });

  it('starts no rollout while paused but scales, and rolls out once resumed', async () => {
    await f.deployments.create(deploymentObject('held', { replicas: 2, ...app('held') }));
    await f.rollout('held');
    await f.edit('held', { paused: true });
    await f.sync('held');
    await f.edit('held', { template: podTemplate('img:2', { app: 'held' }), replicas: 3 });
    const before = f.recorder.events.length;
    await f.sync('held');
    let rss = await f.owned('held');
    assert.equal(rss.length, 1, 'no new ReplicaSet while paused');
    assert.equal(rsReplicas(rss[0]), 3);
    assert.deepEqual(
      f.recorder.events.slice(before).map((e) => e.message),
      [`Scaled up replica set ${rss[0].metadata?.name} from 2 to 3`],
    );
    await f.edit('held', { paused: false });
    await f.rollout('held');
    rss = await f.owned('held');
    assert.equal(rss.length, 2);
    assert.deepEqual(
      rss.map((rs) => rsReplicas(rs)),
      [0, 3],
    );
  });

  it('copies ReplicaFailure from the ReplicaSet and drops it when gone', async () => {
    const [rs] = await f.owned('slow');
    const failure = {
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: 'pods "x" is forbidden: exceeded quota',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    };
    await f.setStatus(rs, { conditions: [failure] });
    await f.sync('slow');
    const cond = getCondition((await f.get('slow')).status, 'ReplicaFailure');
    assert.deepEqual(cond, { ...failure, lastUpdateTime: failure.lastTransitionTime });
    await f.setStatus(rs, { conditions: [] });
    await f.sync('slow');
    assert.equal(getCondition((await f.get('slow')).status, 'ReplicaFailure'), undefined);
  });
});

describe('deployment controller: terminatingReplicas gate', () => {
  for (const gate of [true, false]) {
    it(`is ${gate ? 'reported' : 'left out'} with the gate ${gate ? 'on' : 'off'}`, async () => {
      const f = new DeploymentFixture({ terminatingReplicas: gate });
      await f.start();
      try {
        await f.deployments.create(deploymentObject('term', { replicas: 2 }));
        await f.sync('term');
        const [rs] = await f.owned('term');
        await f.setStatus(rs, {
          replicas: 2,
          availableReplicas: 2,
          terminatingReplicas: 1,
          observedGeneration: 1,
        });
        await f.sync('term');
        assert.equal((await f.get('term')).status?.terminatingReplicas, gate ? 1 : undefined);
      } finally {
        f.stop();
      }
    });
  }
});
