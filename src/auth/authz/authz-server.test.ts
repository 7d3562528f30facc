// The ABAC and Webhook modes on a running server: users from a token file are allowed what the
// policy file or the test webhook allows, denied with upstream's 403 message (the authorizers'
// reasons after it), and the admin (system:masters) keeps full access whatever they say. A webhook
// answering garbage is a 500 carrying the error, as upstream answers.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';
import { abacGroup } from './abac.ts';
import { startAuthzWebhook, type TestAuthzWebhook } from './testing/webhook-authorizer.ts';

const bearer = (token: string) => ({ anonymous: true, headers: { authorization: `Bearer ${token}` } });

function tokenFile(dir: string): string {
  const f = join(dir, 'tokens.csv');
  writeFileSync(
    f,
    ['alice-token,alice,1,"dev"', 'bob-token,bob,2,"dev"', 'garbage-token,garbage,3'].join('\n'),
  );
  return f;
}

describe('ABAC mode on a server', () => {
  let dir: string;
  let api: TestApiServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'abac-server-'));
    const policy = join(dir, 'policy.jsonl');
    const line = (spec: Record<string, unknown>) =>
      JSON.stringify({ apiVersion: `${abacGroup(namingProfile('spec'))}/v1beta1`, kind: 'Policy', spec });
    writeFileSync(
      policy,
      [
        line({ user: 'alice', namespace: 'default', resource: 'configmaps', apiGroup: '*', readonly: true }),
        line({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
      ].join('\n'),
    );
    api = await startTestApiServer({
      tokenAuthFile: tokenFile(dir),
      authorizationModes: ['ABAC'],
      authorization: { policyFile: policy },
    });
  });
  after(async () => {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('allows what the policies say and denies the rest with upstream message', async () => {
    const list = await api.call({ path: '/api/v1/namespaces/default/configmaps', ...bearer('alice-token') });
    assert.equal(list.status, 200, list.body);
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } });
    const create = await api.call({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body,
      ...bearer('alice-token'),
    });
    assert.equal(create.status, 403);
    const status = create.json();
    assert.equal(status.reason, 'Forbidden');
    assert.equal(
      status.message,
      'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "default": No policy matched.',
    );
    const byBob = await api.call({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body,
      ...bearer('bob-token'),
    });
    assert.equal(byBob.status, 201, byBob.body);
    // The admin is in system:masters.
    assert.equal((await api.call({ path: '/api/v1/namespaces' })).status, 200);
  });
});

describe('Webhook mode on a server', () => {
  let dir: string;
  let api: TestApiServer;
  let webhook: TestAuthzWebhook;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-server-'));
    webhook = await startAuthzWebhook((r) => {
      if (r.spec.user === 'alice') return { status: { allowed: true } };
      if (r.spec.user === 'garbage') return { raw: 'not json' };
      return { status: { allowed: false, denied: true, reason: 'bob is on holiday' } };
    });
    api = await startTestApiServer({
      tokenAuthFile: tokenFile(dir),
      authorizationModes: ['Webhook'],
      authorization: { webhook: { configFile: webhook.writeClientConfig(dir), version: 'v1' } },
    });
  });
  after(async () => {
    await api?.stop();
    await webhook?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks the webhook and answers as it says', async () => {
    const ok = await api.call({ path: '/api/v1/namespaces/default/secrets/s1', ...bearer('alice-token') });
    assert.equal(ok.status, 404, ok.body);
    const sent = webhook.seen.find((r) => r.spec.user === 'alice');
    assert.deepEqual(sent?.spec.resourceAttributes, {
      namespace: 'default',
      verb: 'get',
      version: 'v1',
      resource: 'secrets',
      name: 's1',
    });
    assert.equal(sent?.apiVersion, 'authorization.k8s.io/v1');
    const denied = await api.call({ path: '/api/v1/namespaces/default/secrets/s1', ...bearer('bob-token') });
    assert.equal(denied.status, 403);
    assert.equal(
      denied.json().message,
      'secrets "s1" is forbidden: User "bob" cannot get resource "secrets" in API group "" in the namespace "default": bob is on holiday',
    );
    const broken = await api.call({ path: '/api/v1/namespaces', ...bearer('garbage-token') });
    assert.equal(broken.status, 500);
    assert.match(String(broken.json().message), /^Internal error occurred: /);
    assert.equal((await api.call({ path: '/api/v1/namespaces' })).status, 200);
  });
});

describe('selectors in the webhook review', () => {
  it('a list sends its field and label selectors as requirements', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-selectors-'));
    const webhook = await startAuthzWebhook(() => ({ status: { allowed: true } }));
    const api = await startTestApiServer({
      tokenAuthFile: tokenFile(dir),
      authorizationModes: ['Webhook'],
      authorization: { webhook: { configFile: webhook.writeClientConfig(dir), version: 'v1beta1' } },
    });
    try {
      const q = new URLSearchParams({
        fieldSelector: 'metadata.name!=x',
        labelSelector: 'app in (b,a),!gone,tier',
      });
      const r = await api.call({
        path: `/api/v1/namespaces/default/configmaps?${q}`,
        ...bearer('alice-token'),
      });
      assert.equal(r.status, 200, r.body);
      const ra = webhook.seen.at(-1)?.spec.resourceAttributes as Record<string, unknown>;
      assert.deepEqual(ra.fieldSelector, {
        requirements: [{ key: 'metadata.name', operator: 'NotIn', values: ['x'] }],
      });
      assert.deepEqual(ra.labelSelector, {
        requirements: [
          { key: 'app', operator: 'In', values: ['a', 'b'] },
          { key: 'gone', operator: 'DoesNotExist' },
          { key: 'tier', operator: 'Exists' },
        ],
      });
    } finally {
      await api.stop();
      await webhook.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
