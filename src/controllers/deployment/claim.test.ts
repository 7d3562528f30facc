// Ownership on the fake cluster: a matching orphan ReplicaSet with the Deployment's template is
// adopted and used as the new one (FoundNewReplicaSet), an owned one whose labels stop matching is
// released, a ReplicaSet of another template squatting on the hashed name bumps collisionCount
// and the next sync uses another name; a selector selecting everything gets a warning; workers
// run the whole loop; the descriptor is named as upstream.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../server/testing/wait-for.ts';
import { controllerRefOf } from '../workload/controller-ref.ts';
import { getCondition } from './conditions.ts';
import { computeHash } from './hash.ts';
import { deploymentControllerDescriptor } from './index.ts';
import { DeploymentFixture, deploymentObject, NS, podTemplate } from './testing.ts';
import { type ReplicaSet, rsReplicas } from './types.ts';

describe('deployment controller: claiming ReplicaSets', () => {
  const f = new DeploymentFixture();
  before(() => f.start());
  after(() => f.stop());

  const orphan = (
    name: string,
    labels: Record<string, string>,
    template: ReturnType<typeof podTemplate>,
  ): ReplicaSet => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: NS, labels },
    spec: { replicas: 2, selector: { matchLabels: labels }, template },
  });

  it('adopts a matching orphan and uses it as the new ReplicaSet', async () => {
    const t = podTemplate('img:1', { app: 'adopt' });
    const labelled = { ...t, metadata: { labels: { app: 'adopt', [f.names.podTemplateHashLabel]: 'old' } } };
    await f.replicaSets.create(
      orphan('adopt-old', { app: 'adopt', [f.names.podTemplateHashLabel]: 'old' }, labelled),
    );
    const d = await f.deployments.create(
      deploymentObject('adopt', { replicas: 2, selector: { matchLabels: { app: 'adopt' } }, template: t }),
    );
    // The adoption's patch makes the cached copy stale: its first update conflicts and is retried,
    // as upstream's is.
    await f.syncRetrying('adopt');
    const rss = await f.owned('adopt');
    assert.equal(rss.length, 1, 'no ReplicaSet created');
    assert.equal(rss[0].metadata?.name, 'adopt-old');
    const ref = controllerRefOf(rss[0]);
    assert.deepEqual(ref, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'adopt',
      uid: d.metadata?.uid,
      controller: true,
      blockOwnerDeletion: true,
    });
    assert.equal(rss[0].metadata?.annotations?.[f.names.revision], '1');
    const cur = await f.get('adopt');
    assert.equal(getCondition(cur.status, 'Progressing')?.reason, 'FoundNewReplicaSet');
    assert.equal(getCondition(cur.status, 'Progressing')?.message, 'Found new replica set "adopt-old"');
  });

  it('releases an owned ReplicaSet whose labels no longer match', async () => {
    const [rs] = await f.owned('adopt');
    await f.replicaSets.update({ ...rs, metadata: { ...rs.metadata, labels: { app: 'elsewhere' } } });
    await f.syncRetrying('adopt');
    const released = await f.replicaSets.get('adopt-old');
    assert.equal(controllerRefOf(released), undefined);
    assert.deepEqual(released.metadata?.ownerReferences, []);
  });

  it('bumps collisionCount when another template holds the hashed name', async () => {
    const t = podTemplate('img:1', { app: 'clash' });
    const hash = computeHash(t);
    // Squatting on the name, with labels the Deployment does not select (so it is never adopted).
    await f.replicaSets.create(
      orphan(`clash-${hash}`, { app: 'other' }, podTemplate('img:9', { app: 'other' })),
    );
    await f.deployments.create(
      deploymentObject('clash', { replicas: 1, selector: { matchLabels: { app: 'clash' } }, template: t }),
    );
    await assert.rejects(f.sync('clash'), (err: Error & { status?: { reason?: string } }) => {
      assert.equal(err.status?.reason, 'AlreadyExists');
      return true;
    });
    assert.equal((await f.get('clash')).status?.collisionCount, 1);
    await f.sync('clash');
    const rss = await f.owned('clash');
    assert.equal(rss.length, 1);
    assert.equal(rss[0].metadata?.name, `clash-${computeHash(t, 1)}`);
    assert.equal((await f.get('clash')).status?.collisionCount, 1, 'kept in the status');
  });

  it('warns about a selector selecting everything and only records the generation', async () => {
    await f.deployments.create(deploymentObject('all', { selector: {} }));
    await f.sync('all');
    assert.equal(f.recorder.events.at(-1)?.reason, 'SelectingAll');
    assert.equal(
      f.recorder.events.at(-1)?.message,
      'This deployment is selecting all pods. A non-empty selector is required.',
    );
    assert.equal((await f.get('all')).status?.observedGeneration, 1);
    assert.equal((await f.owned('all')).length, 0);
  });
});

describe('deployment controller: workers', () => {
  it('rolls a Deployment out from its events alone', async () => {
    const f = new DeploymentFixture();
    await f.start();
    const stop = new AbortController();
    const running = f.controller.run(stop.signal);
    try {
      await f.deployments.create(deploymentObject('auto', { replicas: 2 }));
      const [rs] = await waitFor(
        () => f.owned('auto'),
        (rss) => rss.length === 1 && rsReplicas(rss[0]) === 2,
        'the first ReplicaSet',
      );
      await f.simulate('ready');
      await waitFor(
        () => f.get('auto'),
        (d) => getCondition(d.status, 'Progressing')?.reason === 'NewReplicaSetAvailable',
        'the rollout to complete',
      );
      assert.equal((await f.get('auto')).status?.availableReplicas, 2);
      assert.equal(
        f.messages('ScalingReplicaSet')[0],
        `Scaled up replica set ${rs.metadata?.name} from 0 to 2`,
      );
    } finally {
      stop.abort();
      await running;
      f.stop();
    }
  });

  it('is described as upstream names it', () => {
    assert.equal(deploymentControllerDescriptor.name, 'deployment-controller');
    assert.deepEqual(deploymentControllerDescriptor.aliases, ['deployment']);
    assert.equal(deploymentControllerDescriptor.serviceAccountName, 'deployment-controller');
    assert.equal(deploymentControllerDescriptor.enabledByDefault, true);
  });
});
