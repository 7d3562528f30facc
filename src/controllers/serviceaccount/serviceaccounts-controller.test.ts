// The serviceaccount controller against an in-process server through the real client and
// informers: every namespace (those the server starts with, and new ones) gets `default`, which
// comes back when deleted; a namespace being deleted gets nothing.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { componentName, namingProfile } from '../../naming/index.ts';
import { waitFor, waitUntil } from '../../server/testing/wait-for.ts';
import { NAMESPACES, SERVICE_ACCOUNTS } from '../controller-support.ts';
import { namespaceControllerDescriptor } from '../namespace/index.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import { ServiceAccountsController, serviceAccountControllerDescriptor } from './index.ts';

const exists = async (h: ControllerHarness, ns: string, name: string): Promise<ApiObject | undefined> => {
  try {
    return await h.client.resource(SERVICE_ACCOUNTS, ns).get(name);
  } catch {
    return undefined;
  }
};

describe('serviceaccount controller', () => {
  let h: ControllerHarness;
  before(async () => {
    h = await startControllerHarness();
    await h.start(serviceAccountControllerDescriptor);
    // A deleted namespace is emptied by the namespace controller, as in the manager.
    await h.start(namespaceControllerDescriptor);
  });
  after(async () => h?.stop());

  it('is named as upstream', () => {
    assert.equal(serviceAccountControllerDescriptor.name, 'serviceaccount-controller');
    assert.deepEqual(serviceAccountControllerDescriptor.aliases, ['serviceaccount']);
    assert.equal(serviceAccountControllerDescriptor.serviceAccountName, 'service-account-controller');
    assert.equal(serviceAccountControllerDescriptor.enabledByDefault, true);
  });

  it('gives the namespaces the server starts with their default account', async () => {
    const spec = namingProfile('spec');
    for (const ns of ['default', componentName(spec, 'system'), componentName(spec, 'public')]) {
      await waitUntil(async () => (await exists(h, ns, 'default')) !== undefined, `default account in ${ns}`);
    }
  });

  it('gives a new namespace its default account and recreates it when deleted', async () => {
    await h.client
      .resource(NAMESPACES)
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    const first = await waitFor(
      () => exists(h, 'team-a', 'default'),
      (sa) => sa !== undefined,
      'default account in team-a',
    );
    await h.client.resource(SERVICE_ACCOUNTS, 'team-a').delete('default');
    const second = await waitFor(
      () => exists(h, 'team-a', 'default'),
      (sa) => sa !== undefined && sa.metadata?.uid !== first?.metadata?.uid,
      'a new default account in team-a',
    );
    assert.notEqual(second?.metadata?.uid, first?.metadata?.uid);
  });

  it('creates nothing in a namespace being deleted', async () => {
    const namespaces = h.client.resource(NAMESPACES);
    await namespaces.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'going', finalizers: ['example.com/hold'] },
    });
    await waitUntil(
      async () => (await exists(h, 'going', 'default')) !== undefined,
      'default account in going',
    );
    await namespaces.delete('going');
    const nsInformer = h.informers.forResource(NAMESPACES);
    await waitUntil(
      () =>
        (nsInformer.lister.get('going')?.status as { phase?: string } | undefined)?.phase === 'Terminating',
      'going seen as Terminating',
    );
    // The namespace controller empties it; the account stays gone.
    await waitUntil(async () => (await exists(h, 'going', 'default')) === undefined, 'going emptied');
    const c = new ServiceAccountsController({
      client: h.client,
      namespaces: nsInformer,
      serviceAccounts: h.informers.forResource(SERVICE_ACCOUNTS),
      log: h.context().log,
    });
    try {
      await c.sync('going');
      await c.sync('no-such-namespace');
    } finally {
      c.stop();
    }
    assert.equal(await exists(h, 'going', 'default'), undefined);
    // A merge patch, not an update: the namespace controller writes the namespace's status meanwhile.
    await namespaces.patch('going', 'merge', { metadata: { finalizers: null } });
  });
});
