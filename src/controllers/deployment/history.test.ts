// Revisions across rollouts on the fake cluster: revisionHistoryLimit deletes the oldest old
// ReplicaSets once a rollout completes; going back to an old template (what `kubectl rollout
// undo` does, client-side) makes the old ReplicaSet current again under the next revision, with
// the one it had kept in revision-history; the deprecated rollback annotation does the same in the
// controller, with upstream's events.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DeploymentFixture, deploymentObject, podTemplate } from './testing.ts';
import { rsReplicas } from './types.ts';

describe('deployment controller: history and rollback', () => {
  const f = new DeploymentFixture();
  before(() => f.start());
  after(() => f.stop());

  const revisions = async (name: string) =>
    (await f.owned(name)).map((rs) => [rs.metadata?.annotations?.[f.names.revision], rsReplicas(rs)]);

  it('keeps revisionHistoryLimit old ReplicaSets, deleting the lowest revisions', async () => {
    await f.deployments.create(deploymentObject('hist', { replicas: 2, revisionHistoryLimit: 1 }));
    await f.rollout('hist');
    await f.rollout('hist', podTemplate('img:2'));
    assert.deepEqual(await revisions('hist'), [
      ['1', 0],
      ['2', 2],
    ]);
    await f.rollout('hist', podTemplate('img:3'));
    assert.deepEqual(await revisions('hist'), [
      ['2', 0],
      ['3', 2],
    ]);
    const d = await f.get('hist');
    assert.equal(d.metadata?.annotations?.[f.names.revision], '3');
  });

  it('makes an old ReplicaSet current again, with a new revision, when its template comes back', async () => {
    const [old] = await f.owned('hist');
    // kubectl rollout undo: the old ReplicaSet's template, without the hash label, patched in.
    const template = structuredClone(old.spec?.template ?? {});
    delete template.metadata?.labels?.[f.names.podTemplateHashLabel];
    await f.rollout('hist', template);
    const rss = await f.owned('hist');
    assert.equal(rss.length, 2, 'no new ReplicaSet: the old one is reused');
    const back = rss.find((rs) => rs.metadata?.uid === old.metadata?.uid);
    assert.equal(back?.metadata?.annotations?.[f.names.revision], '4');
    assert.equal(back?.metadata?.annotations?.[f.names.revisionHistory], '2');
    assert.equal(rsReplicas(back ?? {}), 2);
    const d = await f.get('hist');
    assert.equal(d.metadata?.annotations?.[f.names.revision], '4');
  });

  it('honours the deprecated rollback annotation, then clears it', async () => {
    await f.deployments.create(
      deploymentObject('undo', {
        replicas: 1,
        selector: { matchLabels: { app: 'undo' } },
        template: podTemplate('img:1', { app: 'undo' }),
      }),
    );
    await f.rollout('undo');
    await f.rollout('undo', podTemplate('img:2', { app: 'undo' }));
    const cur = await f.get('undo');
    await f.deployments.update({
      ...cur,
      metadata: {
        ...cur.metadata,
        annotations: { ...(cur.metadata?.annotations ?? {}), [f.names.rollbackTo]: '0' },
      },
    });
    await f.sync('undo');
    const d = await f.get('undo');
    assert.equal(d.metadata?.annotations?.[f.names.rollbackTo], undefined);
    const containers = d.spec?.template?.spec?.containers as { image: string }[];
    assert.equal(containers[0].image, 'img:1');
    assert.equal(d.spec?.template?.metadata?.labels?.[f.names.podTemplateHashLabel], undefined);
    const last = f.recorder.events.at(-1);
    assert.equal(last?.reason, 'DeploymentRollback');
    assert.equal(last?.message, 'Rolled back deployment "undo" to revision 1');

    await f.rollout('undo');
    const rss = await f.owned('undo');
    assert.equal(rss.length, 2);
    assert.deepEqual(
      rss.map((rs) => rs.metadata?.annotations?.[f.names.revision]),
      ['3', '2'],
    );

    // A revision that does not exist: a warning, and the request is dropped.
    const now = await f.get('undo');
    await f.deployments.update({
      ...now,
      metadata: {
        ...now.metadata,
        annotations: { ...(now.metadata?.annotations ?? {}), [f.names.rollbackTo]: '9' },
      },
    });
    await f.sync('undo');
    assert.equal(f.recorder.events.at(-1)?.reason, 'DeploymentRollbackRevisionNotFound');
    assert.equal(f.recorder.events.at(-1)?.message, 'Unable to find the revision to rollback to.');
    assert.equal((await f.get('undo')).metadata?.annotations?.[f.names.rollbackTo], undefined);
  });
});
