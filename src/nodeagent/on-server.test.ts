// Simulated nodes against a real in-process API server, each agent and the scheduler with a client
// certificate of its own (the Node authorizer and RBAC judge them): the Nodes register Ready with
// their Leases, a Pod created by the admin is bound by the scheduler and run by its node's agent,
// and deleting it leaves nothing behind once the agent has stopped it; the Events the scheduler and
// the agent record about a Pod (as `kubectl describe` lists them) are written under their identities.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { restOptionsFromPlatconfig } from '../client/config.ts';
import type { CoreEvent } from '../client/events/event.ts';
import { EVENTS } from '../client/events/recorder.ts';
import { type Lease, leaseResource } from '../client/leader-election/lease-lock.ts';
import { RestClient } from '../client/rest-client.ts';
import { namingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import { startTestApiServer, type TestApiServer } from '../server/testing/http-client.ts';
import { waitFor } from '../server/testing/wait-for.ts';
import { NODES, type Node, PODS, type Pod } from './objects.ts';
import { type SimulatedNodesHandle, startSimulatedNodes } from './simulated-nodes.ts';

const profile = namingProfile('spec');
const names = simulatedNodeNames(profile);
const NS = 'sim-test';

describe('simulated nodes on a server', () => {
  let api: TestApiServer;
  let admin: RestClient;
  let nodes: SimulatedNodesHandle;
  const errors: string[] = [];

  before(async () => {
    api = await startTestApiServer();
    const opts = restOptionsFromPlatconfig(api.server.adminConfigPath, { profile });
    admin = new RestClient({ ...opts, qps: -1 });
    const { credentials: _admin, ...connection } = opts;
    nodes = await startSimulatedNodes({
      count: 2,
      namePrefix: 'sim',
      profile,
      connection: { ...connection, qps: -1 },
      clientCA: {
        certPem: readFileSync(join(api.dir, 'ca.crt'), 'utf8'),
        keyPem: readFileSync(join(api.dir, 'ca.key'), 'utf8'),
      },
      onError: (err, who) => errors.push(`${who}: ${err instanceof Error ? err.message : String(err)}`),
    });
    await admin
      .resource({ group: '', version: 'v1', resource: 'namespaces' })
      .create({ metadata: { name: NS } });
    await admin
      .resource({ group: '', version: 'v1', resource: 'serviceaccounts' }, NS)
      .create({ metadata: { name: 'default' } });
  });

  after(async () => {
    await nodes?.stop();
    admin?.close();
    await api?.stop();
  });

  it('registers Ready Nodes with their Leases', async () => {
    const list = await admin.resource<Node>(NODES).list();
    assert.deepEqual(list.items.map((n) => n.metadata?.name).sort(), ['sim-0', 'sim-1']);
    for (const n of list.items) {
      assert.equal(n.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
      assert.equal(n.metadata?.labels?.[names.hostnameLabel], n.metadata?.name);
    }
    const leases = await admin.resource<Lease>(leaseResource(profile), names.nodeLeaseNamespace).list();
    assert.deepEqual(leases.items.map((l) => l.spec?.holderIdentity).sort(), ['sim-0', 'sim-1']);
  });

  it('binds a Pod, runs it, and removes it when deleted', async () => {
    const pods = admin.resource<Pod>(PODS, NS);
    await pods.create({
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'app', image: 'nginx' }], terminationGracePeriodSeconds: 30 },
    });
    const running = await waitFor(
      () => pods.get('web'),
      (p) =>
        p.status?.phase === 'Running' &&
        p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true,
      'the Pod Running and Ready',
    );
    assert.ok(running.spec?.nodeName === 'sim-0' || running.spec?.nodeName === 'sim-1');
    assert.equal(running.status?.containerStatuses?.[0]?.ready, true);
    assert.ok(running.status?.podIP);
    assert.equal(running.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'True');
    await pods.delete('web');
    await waitFor(
      async () => (await pods.list()).items.length,
      (n) => n === 0,
      'the Pod gone',
    );
    assert.deepEqual(errors, []);
  });

  it('records the Events kubectl describe shows for a scheduled Pod', async () => {
    const pods = admin.resource<Pod>(PODS, NS);
    await pods.create({
      metadata: { name: 'told' },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    });
    const running = await waitFor(
      () => pods.get('told'),
      (p) => p.status?.phase === 'Running',
      'the Pod Running',
    );
    const node = running.spec?.nodeName ?? '';
    const events = admin.resource<CoreEvent>(EVENTS, NS);
    const about = () => events.list({ fieldSelector: 'involvedObject.name=told' }).then((l) => l.items);
    const started = await waitFor(about, (items) => items.length >= 4, 'four Events about the Pod');
    const byReason = new Map(started.map((e) => [e.reason, e]));
    assert.deepEqual([...byReason.keys()].sort(), ['Created', 'Pulled', 'Scheduled', 'Started']);
    const scheduled = byReason.get('Scheduled');
    assert.equal(scheduled?.type, 'Normal');
    assert.equal(scheduled?.message, `Successfully assigned ${NS}/told to ${node}`);
    assert.equal(scheduled?.source.component, names.defaultSchedulerName);
    assert.equal(scheduled?.involvedObject.uid, running.metadata?.uid);
    for (const reason of ['Pulled', 'Created', 'Started']) {
      const e = byReason.get(reason);
      assert.deepEqual(e?.source, { component: profile.nodeAgent, host: node }, reason);
      assert.equal(e?.reportingInstance, node);
      assert.equal(e?.involvedObject.fieldPath, 'spec.containers{app}');
    }
    assert.equal(byReason.get('Started')?.message, 'Container started');

    await pods.delete('told');
    const killed = await waitFor(
      about,
      (items) => items.some((e) => e.reason === 'Killing'),
      'the Killing Event',
    );
    assert.equal(killed.find((e) => e.reason === 'Killing')?.message, 'Stopping container app');
    assert.deepEqual(errors, []);
  });
});
