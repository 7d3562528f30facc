// What an operator's tests do with @kubernetes/client-node against the control plane with
// simulated nodes: create a Deployment through the typed apps client, wait until it is Available,
// find its Pods Running on the simulated nodes by field selector, read the controller's Events,
// and scale it through the scale sub-resource.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppsV1Api, CoreV1Api, KubeConfig, type V1Deployment } from '@kubernetes/client-node';
import { startTestServer, type TestServer, waitUntil } from './lib/harness.ts';

const NS = 'default';

function available(d: V1Deployment | undefined, replicas: number): boolean {
  const s = d?.status;
  return (
    (s?.observedGeneration ?? 0) >= (d?.metadata?.generation ?? 1) &&
    s?.availableReplicas === replicas &&
    s?.updatedReplicas === replicas &&
    (s?.conditions ?? []).some((c) => c.type === 'Available' && c.status === 'True')
  );
}

describe('@kubernetes/client-node: workloads on simulated nodes', () => {
  let ts: TestServer;
  let apps: AppsV1Api;
  let core: CoreV1Api;
  before(async () => {
    ts = await startTestServer({}, { simulatedNodes: 2 });
    const kc = new KubeConfig();
    kc.loadFromFile(ts.server.adminConfigPath);
    apps = kc.makeApiClient(AppsV1Api);
    core = kc.makeApiClient(CoreV1Api);
  });
  after(() => ts.stop());

  it('a Deployment becomes Available with its Pods Running on the simulated nodes', async () => {
    const labels = { app: 'op' };
    await apps.createNamespacedDeployment({
      namespace: NS,
      body: {
        metadata: { name: 'op' },
        spec: {
          replicas: 2,
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'example/op:1' }] } },
        },
      },
    });
    await waitUntil(
      async () => available(await apps.readNamespacedDeployment({ name: 'op', namespace: NS }), 2),
      'the Deployment Available with 2 replicas',
    );
    const nodes = (await core.listNode()).items.map((n) => String(n.metadata?.name));
    assert.equal(nodes.length, 2);
    let running = 0;
    for (const node of nodes) {
      const pods = await core.listNamespacedPod({
        namespace: NS,
        labelSelector: 'app=op',
        fieldSelector: `spec.nodeName=${node},status.phase=Running`,
      });
      running += pods.items.length;
      for (const p of pods.items) {
        assert.equal(p.spec?.nodeName, node);
        assert.equal(p.status?.containerStatuses?.[0]?.ready, true);
      }
    }
    assert.equal(running, 2);
  });

  it("the controllers' Events are readable by involved object", async () => {
    const events = await core.listNamespacedEvent({
      namespace: NS,
      fieldSelector: 'involvedObject.kind=Deployment,involvedObject.name=op',
    });
    const scaled = events.items.find((e) => e.reason === 'ScalingReplicaSet');
    assert.ok(scaled, JSON.stringify(events.items.map((e) => e.reason)));
    assert.equal(scaled.source?.component, 'deployment-controller');
    assert.match(String(scaled.message), /^Scaled up replica set op-[a-z0-9]+ from 0 to 2$/);
  });

  it('scales through the scale sub-resource, and a negative count is refused with 422', async () => {
    const scale = await apps.readNamespacedDeploymentScale({ name: 'op', namespace: NS });
    assert.equal(scale.spec?.replicas, 2);
    await assert.rejects(
      apps.replaceNamespacedDeploymentScale({
        name: 'op',
        namespace: NS,
        body: { ...scale, spec: { replicas: -1 } },
      }),
      (err: { code?: number; body?: string }) =>
        err.code === 422 && /must be greater than or equal to 0/.test(String(err.body)),
    );
    await apps.replaceNamespacedDeploymentScale({
      name: 'op',
      namespace: NS,
      body: { ...scale, spec: { replicas: 3 } },
    });
    await waitUntil(
      async () => available(await apps.readNamespacedDeployment({ name: 'op', namespace: NS }), 3),
      'the Deployment Available with 3 replicas',
    );
  });
});
