// The Recreate strategy on the fake cluster: an image change first takes every old ReplicaSet to
// zero, waits while old ReplicaSets still report Pods and while any old Pod is left unfinished, and
// only then creates the new ReplicaSet at full size; the last old Pod's deletion queues the
// Deployment.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { newControllerRef } from '../workload/controller-ref.ts';
import { DeploymentFixture, deploymentObject, NS, podTemplate } from './testing.ts';
import { type ReplicaSet, rsReplicas } from './types.ts';

describe('deployment controller: recreate', () => {
  const f = new DeploymentFixture();
  before(() => f.start());
  after(() => f.stop());

  const pod = (name: string, owner: ReplicaSet, phase: string) =>
    f.pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: NS,
        labels: { ...(owner.spec?.template?.metadata?.labels ?? {}) },
        ownerReferences: [newControllerRef(owner, 'apps/v1', 'ReplicaSet')],
      },
      status: { phase },
    });

  async function drainQueue(): Promise<void> {
    while (f.controller.queue.len() > 0) {
      const next = await f.controller.queue.get();
      if (!next.shutdown) f.controller.queue.done(next.item);
    }
  }

  it('scales old to zero, waits for old Pods to go, then creates the new ReplicaSet', async () => {
    await f.deployments.create(deploymentObject('batch', { replicas: 2, strategy: { type: 'Recreate' } }));
    await f.sync('batch');
    const [v1] = await f.owned('batch');
    assert.equal(rsReplicas(v1), 2);
    await f.simulate('ready');
    await pod('batch-a', v1, 'Running');
    await pod('batch-b', v1, 'Running');
    await f.sync('batch');

    f.clock.step(60_000);
    await f.edit('batch', { template: podTemplate('img:2') });
    const before = f.recorder.events.length;
    await f.sync('batch');
    let rss = await f.owned('batch');
    assert.equal(rss.length, 1, 'no new ReplicaSet while old ones scale down');
    assert.equal(rsReplicas(rss[0]), 0);
    assert.deepEqual(
      f.recorder.events.slice(before).map((e) => e.message),
      [`Scaled down replica set ${v1.metadata?.name} from 2 to 0`],
    );

    // The old ReplicaSet still reports its Pods.
    await f.sync('batch');
    assert.equal((await f.owned('batch')).length, 1);

    // Its count is down, but one old Pod is still running (one finished is no obstacle).
    await f.simulate('created');
    await f.pods.update({ ...(await f.pods.get('batch-a')), status: { phase: 'Succeeded' } });
    await f.sync('batch');
    assert.equal((await f.owned('batch')).length, 1);

    // The last old Pod's deletion queues the Deployment (any Pod left, even a finished one, does not).
    await f.pods.delete('batch-a');
    await f.settle();
    await drainQueue();
    await f.pods.delete('batch-b');
    await waitUntil(() => f.controller.queue.len() === 1, 'the deployment queued by the pod deletion');
    await f.sync('batch');
    rss = await f.owned('batch');
    assert.equal(rss.length, 2);
    assert.equal(rsReplicas(rss[1]), 2, 'the new ReplicaSet starts at full size');
    assert.equal(rss[1].metadata?.annotations?.[f.names.revision], '2');
    assert.equal(
      f.recorder.events.at(-1)?.message,
      `Scaled up replica set ${rss[1].metadata?.name} from 0 to 2`,
    );
  });
});
