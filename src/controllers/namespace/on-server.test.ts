// The namespace controller's descriptor against a real in-process API server through the HTTP client, the shared namespaces informer and discovery: a
// namespace holding objects of several kinds and groups is emptied, reports (under the controller
// manager's name) what still holds it, and goes once the last finalizer is removed.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResourceClient } from '../../client/api.ts';
import type { RestClient } from '../../client/rest-client.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { componentName, groupName, namingProfile } from '../../naming/index.ts';
import { waitFor, waitUntil } from '../../server/testing/wait-for.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import type { NamespaceCondition } from './conditions.ts';
import { namespaceControllerDescriptor } from './index.ts';

const SPEC = namingProfile('spec');
const core = (resource: string) => ({ group: '', version: 'v1', resource });

describe('namespace controller on a server', () => {
  let h: ControllerHarness;
  let client: RestClient;
  let namespaces: ResourceClient;

  before(async () => {
    h = await startControllerHarness();
    client = h.client;
    namespaces = client.resource(core('namespaces'));
    await h.start(namespaceControllerDescriptor);
  });
  after(() => h?.stop());

  it('empties a namespace of several kinds, reports what holds it, and releases it when the last finalizer goes', async () => {
    const ns = 'doomed';
    await namespaces.create({ metadata: { name: ns } });
    const cms = client.resource(core('configmaps'), ns);
    for (let i = 0; i < 200; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => cms.create({ metadata: { name: `cm-${i + j}` } })),
      );
    await cms.create({ metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    await client.resource(core('secrets'), ns).create({ metadata: { name: 's' }, stringData: { a: 'b' } });
    await client.resource(core('serviceaccounts'), ns).create({ metadata: { name: 'sa' } });
    const rbac = groupName(SPEC, 'rbac.authorization');
    await client
      .resource({ group: rbac, version: 'v1', resource: 'roles' }, ns)
      .create({ apiVersion: `${rbac}/v1`, kind: 'Role', metadata: { name: 'r' }, rules: [] });
    const deployments = client.resource({ group: 'apps', version: 'v1', resource: 'deployments' }, ns);
    await deployments.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    });

    const deleted = (await namespaces.delete(ns)) as ApiObject;
    assert.equal((deleted.status as { phase?: string }).phase, 'Terminating');

    type Ns = ApiObject & { status?: { conditions?: NamespaceCondition[] } };
    const condition = async (type: string) =>
      ((await namespaces.get(ns)) as Ns).status?.conditions?.find((c) => c.type === type);
    await waitUntil(
      async () => (await condition('NamespaceContentRemaining'))?.status === 'True',
      'the remaining-content condition',
    );
    assert.equal(
      (await condition('NamespaceContentRemaining'))?.message,
      'Some resources are remaining: configmaps. has 1 resource instances',
    );
    assert.equal(
      (await condition('NamespaceFinalizersRemaining'))?.message,
      'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    );
    assert.equal((await condition('NamespaceDeletionContentFailure'))?.status, 'False');
    assert.equal((await condition('NamespaceDeletionDiscoveryFailure'))?.status, 'False');
    const managers = ((await namespaces.get(ns)).metadata?.managedFields ?? []) as {
      manager?: string;
      subresource?: string;
    }[];
    assert.ok(
      managers.some(
        (m) => m.manager === componentName(SPEC, 'controller-manager') && m.subresource === 'status',
      ),
      `the controller's status writes are recorded: ${JSON.stringify(managers)}`,
    );
    assert.deepEqual(
      (await cms.list()).items.map((i) => i.metadata?.name),
      ['held'],
    );
    for (const r of [core('secrets'), core('serviceaccounts')])
      assert.equal((await client.resource(r, ns).list()).items.length, 0, r.resource);
    assert.equal((await deployments.list()).items.length, 0);

    await cms.patch('held', 'merge', { metadata: { finalizers: null } });
    await waitFor(
      () =>
        namespaces.get(ns).then(
          () => 200,
          (err: { code?: number }) => err.code ?? 0,
        ),
      (code) => code === 404,
      'the namespace to go',
    );
  });
});
