// The ReplicaSet controller's descriptor against a real in-process API server through the HTTP
// client and shared informers: an orphan Pod is adopted and the rest created from the template,
// status follows readiness, a relabelled Pod is released and replaced, scale-down deletes the
// unready Pods first, and the controller's Events are written.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResourceClient } from '../../client/api.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { waitFor } from '../../server/testing/wait-for.ts';
import { PODS } from '../controller-support.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import { controllerRefOf } from '../workload/controller-ref.ts';
import type { PodLike } from '../workload/pod-state.ts';
import { replicaSetControllerDescriptor } from './index.ts';
import { REPLICA_SETS, type ReplicaSet } from './types.ts';

const NS = 'default';
const EVENTS = { group: '', version: 'v1', resource: 'events' };

describe('replicaset controller on a server', () => {
  let h: ControllerHarness;
  let pods: ResourceClient<PodLike>;
  let replicaSets: ResourceClient<ReplicaSet>;

  before(async () => {
    h = await startControllerHarness();
    pods = h.client.resource<PodLike>(PODS, NS);
    replicaSets = h.client.resource<ReplicaSet>(REPLICA_SETS, NS);
    await h.start(replicaSetControllerDescriptor, { ReplicaSetController: { ConcurrentRSSyncs: 2 } });
  });
  after(() => h?.stop());

  const podSpec = { containers: [{ name: 'c', image: 'nginx' }] };
  const active = async (uid: string) =>
    (await pods.list({ labelSelector: 'app=web' })).items.filter(
      (p) => !p.metadata?.deletionTimestamp && controllerRefOf(p)?.uid === uid,
    );

  it('adopts, creates, reports status, releases, scales down and records events', async () => {
    const orphan = await pods.create({ metadata: { name: 'orphan', labels: { app: 'web' } }, spec: podSpec });
    // The controller adopts what its Pod cache holds when it syncs: the orphan must be there first
    // (the Pod and ReplicaSet watches are separate streams, so their events may arrive in any order).
    const cached = h.informers.forResource<PodLike>(PODS).lister;
    await waitFor(
      () => cached.get(`${NS}/orphan`),
      (p) => p !== undefined,
      'the orphan in the controller’s Pod cache',
    );
    const rs = await replicaSets.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: podSpec },
      },
    });
    const uid = String(rs.metadata?.uid);
    const owned = await waitFor(
      () => active(uid),
      (ps) => ps.length === 3,
      'three owned Pods',
    );
    assert.ok(owned.some((p) => p.metadata?.name === 'orphan' && p.metadata.uid === orphan.metadata?.uid));
    for (const p of owned.filter((x) => x.metadata?.name !== 'orphan'))
      assert.equal(p.metadata?.generateName, 'web-');
    await waitFor(
      () => replicaSets.get('web'),
      (r) =>
        r.status?.replicas === 3 && r.status.fullyLabeledReplicas === 3 && r.status.observedGeneration === 1,
      'status of three replicas',
    );

    // One Pod becomes ready: ready and available (minReadySeconds 0) follow.
    const first = owned[0] as PodLike;
    const cur = await pods.get(String(first.metadata?.name));
    await pods.update(
      {
        ...cur,
        status: {
          ...cur.status,
          phase: 'Running',
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
            },
          ],
        },
      },
      { subresource: 'status' },
    );
    await waitFor(
      () => replicaSets.get('web'),
      (r) => r.status?.readyReplicas === 1 && r.status.availableReplicas === 1,
      'one ready and available replica',
    );

    // A Pod relabelled out of the selector is released (its reference removed) and replaced.
    const stray = owned.find((p) => p.metadata?.name !== first.metadata?.name) as PodLike;
    await pods.patch(String(stray.metadata?.name), 'merge', { metadata: { labels: { app: 'elsewhere' } } });
    await waitFor(
      () => pods.get(String(stray.metadata?.name)),
      (p) => controllerRefOf(p) === undefined,
      'the relabelled Pod released',
    );
    await waitFor(
      () => active(uid),
      (ps) => ps.length === 3,
      'a replacement Pod',
    );

    // Scale down to one: the ready Pod is the one kept.
    await replicaSets.patch('web', 'merge', { spec: { replicas: 1 } });
    const left = await waitFor(
      () => active(uid),
      (ps) => ps.length === 1,
      'one Pod left',
    );
    assert.equal(left[0]?.metadata?.name, first.metadata?.name);
    await waitFor(
      () => replicaSets.get('web'),
      (r) => r.status?.replicas === 1 && r.status.observedGeneration === 2,
      'status of one replica at generation 2',
    );

    const events = await waitFor(
      async () => (await h.client.resource<ApiObject>(EVENTS, NS).list()).items,
      (evs) => ['SuccessfulCreate', 'SuccessfulDelete'].every((r) => evs.some((e) => e.reason === r)),
      'SuccessfulCreate and SuccessfulDelete events',
    );
    const created = events.find((e) => e.reason === 'SuccessfulCreate') as ApiObject;
    assert.deepEqual(created.source, { component: 'replicaset-controller' });
    assert.equal((created.involvedObject as { uid?: string }).uid, uid);
    assert.equal((created.involvedObject as { kind?: string }).kind, 'ReplicaSet');
  });
});
