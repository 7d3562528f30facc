// The token cleaner against an in-process server through the real client and informers: a
// bootstrap token whose expiry has passed is deleted, one that expires later is deleted at its
// expiry, and tokens without expiry, Secrets of other types or namespaces are left alone.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { bootstrapTokenSecretType, componentName, namingProfile } from '../../naming/index.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { SECRETS } from '../controller-support.ts';
import { type ControllerHarness, startControllerHarness } from '../testing/index.ts';
import { tokenCleanerDescriptor } from './index.ts';

const spec = namingProfile('spec');
const SYSTEM = componentName(spec, 'system');

function token(id: string, extra: Record<string, string> = {}, namespace = SYSTEM): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace },
    type: bootstrapTokenSecretType(spec),
    stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', ...extra },
  };
}

describe('token cleaner', () => {
  let h: ControllerHarness;
  const names = async (ns = SYSTEM) =>
    (await h.client.resource(SECRETS, ns).list()).items.map((s) => String(s.metadata?.name)).sort();

  before(async () => {
    h = await startControllerHarness();
    const secrets = h.client.resource(SECRETS, SYSTEM);
    await secrets.create(token('past01', { expiration: '2001-01-01T00:00:00Z' }));
    await secrets.create(token('never1'));
    await secrets.create(token('future', { expiration: '2999-01-01T00:00:00Z' }));
    await secrets.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bootstrap-token-opaque', namespace: SYSTEM },
      type: 'Opaque',
      stringData: { expiration: '2001-01-01T00:00:00Z' },
    });
    await h.client
      .resource(SECRETS, 'default')
      .create(token('elsewh', { expiration: '2001-01-01T00:00:00Z' }, 'default'));
    await h.start(tokenCleanerDescriptor);
  });
  after(async () => h?.stop());

  it('is named as upstream and off by default', () => {
    assert.equal(tokenCleanerDescriptor.name, 'token-cleaner-controller');
    assert.deepEqual(tokenCleanerDescriptor.aliases, ['tokencleaner']);
    assert.equal(tokenCleanerDescriptor.enabledByDefault, false);
    assert.equal(tokenCleanerDescriptor.serviceAccountName, 'token-cleaner');
  });

  it('deletes expired tokens, and others when they expire', async () => {
    await waitUntil(
      async () => !(await names()).includes('bootstrap-token-past01'),
      'the expired token deleted',
    );
    const expiration = new Date(Date.now() + 2000).toISOString().replace(/\.\d+Z$/, 'Z');
    await h.client.resource(SECRETS, SYSTEM).create(token('soon01', { expiration }));
    await waitUntil(
      async () => (await names()).includes('bootstrap-token-soon01'),
      'the short-lived token stored',
    );
    await waitUntil(
      async () => !(await names()).includes('bootstrap-token-soon01'),
      'the token deleted at its expiry',
    );
    // Queued before it and handled by the one worker first: what is left stays.
    const left = await names();
    for (const n of ['bootstrap-token-never1', 'bootstrap-token-future', 'bootstrap-token-opaque'])
      assert.ok(left.includes(n), n);
    assert.ok((await names('default')).includes('bootstrap-token-elsewh'));
  });
});
