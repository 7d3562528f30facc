// The deployment controller's descriptor with the ReplicaSet controller against a real in-process
// API server (HTTP client, shared informers, the server's defaults and status subresource): a new
// Deployment becomes Available once its Pods are marked ready, an image change rolls over to a
// second ReplicaSet under revision 2 (the revision annotation reaching the stored Deployment), and
// the ScalingReplicaSet Events are written by `deployment-controller`.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResourceClient } from '../../client/api.ts';
import { deploymentAnnotationNames } from '../../naming/deployment-annotations.ts';
import { namingProfile } from '../../naming/profile.ts';
import { waitFor } from '../../server/testing/wait-for.ts';
import { PODS } from '../controller-support.ts';
import { replicaSetControllerDescriptor } from '../replicaset/index.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import { controllerRefOf } from '../workload/controller-ref.ts';
import type { PodLike } from '../workload/pod-state.ts';
import { getCondition } from './conditions.ts';
import { deploymentControllerDescriptor } from './index.ts';
import { DEPLOYMENTS, type Deployment, REPLICA_SETS, type ReplicaSet } from './types.ts';

const NS = 'default';
const EVENTS = { group: '', version: 'v1', resource: 'events' };
const names = deploymentAnnotationNames(namingProfile('spec'));

describe('deployment controller on a server', () => {
  let h: ControllerHarness;
  let pods: ResourceClient<PodLike>;
  let deployments: ResourceClient<Deployment>;
  let replicaSets: ResourceClient<ReplicaSet>;

  before(async () => {
    h = await startControllerHarness();
    pods = h.client.resource<PodLike>(PODS, NS);
    deployments = h.client.resource<Deployment>(DEPLOYMENTS, NS);
    replicaSets = h.client.resource<ReplicaSet>(REPLICA_SETS, NS);
    await h.start(replicaSetControllerDescriptor, { ReplicaSetController: { ConcurrentRSSyncs: 2 } });
    await h.start(deploymentControllerDescriptor, { DeploymentController: { ConcurrentDeploymentSyncs: 2 } });
  });
  after(() => h?.stop());

  /** What a node would do: every live Pod of the app Running and Ready. */
  async function markPodsReady(): Promise<void> {
    for (const p of (await pods.list({ labelSelector: 'app=roll' })).items) {
      if (p.metadata?.deletionTimestamp) continue;
      if (p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
      const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      try {
        await pods.update(
          {
            ...p,
            status: {
              ...p.status,
              phase: 'Running',
              conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }],
            },
          },
          { subresource: 'status' },
        );
      } catch {
        // Changed or gone meanwhile: the next probe looks again.
      }
    }
  }

  const rolledOut = (d: Deployment, replicas: number) =>
    d.status?.observedGeneration === d.metadata?.generation &&
    d.status?.updatedReplicas === replicas &&
    d.status?.replicas === replicas &&
    d.status?.availableReplicas === replicas &&
    getCondition(d.status, 'Progressing')?.reason === 'NewReplicaSetAvailable';

  it('rolls a Deployment out, then an image change, and records its events', async () => {
    const template = (image: string) => ({
      metadata: { labels: { app: 'roll' } },
      spec: { containers: [{ name: 'c', image }] },
    });
    await deployments.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'roll' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'roll' } }, template: template('img:1') },
    });
    let d = await waitFor(
      async () => {
        await markPodsReady();
        return deployments.get('roll');
      },
      (x) => rolledOut(x, 2),
      'the first rollout',
    );
    assert.equal(getCondition(d.status, 'Available')?.status, 'True');
    assert.equal(d.metadata?.annotations?.[names.revision], '1');

    const cur = await deployments.get('roll');
    await deployments.update({ ...cur, spec: { ...cur.spec, template: template('img:2') } });
    d = await waitFor(
      async () => {
        await markPodsReady();
        return deployments.get('roll');
      },
      (x) => x.metadata?.generation === 2 && rolledOut(x, 2),
      'the image change rolled out',
    );
    assert.equal(d.metadata?.annotations?.[names.revision], '2');
    const rss = (await replicaSets.list()).items.filter((rs) => controllerRefOf(rs)?.uid === d.metadata?.uid);
    assert.equal(rss.length, 2);
    const byRevision = Object.fromEntries(
      rss.map((rs) => [rs.metadata?.annotations?.[names.revision], rs.spec?.replicas]),
    );
    assert.deepEqual(byRevision, { '1': 0, '2': 2 });

    const events = await waitFor(
      async () =>
        (await h.client.resource(EVENTS, NS).list()).items.filter(
          (e) => (e.involvedObject as { name?: string } | undefined)?.name === 'roll',
        ),
      (es) => es.some((e) => String(e.message).startsWith('Scaled down')),
      'the scaling events',
    );
    for (const e of events) {
      assert.equal(e.reason, 'ScalingReplicaSet');
      assert.equal((e.source as { component?: string } | undefined)?.component, 'deployment-controller');
    }
  });
});
