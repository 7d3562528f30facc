// @kubernetes/client-node (1.4.x, the Node 20 line) against the server: list, create, server-side
// apply, informer.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CoreV1Api,
  KubeConfig,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { eventually, startTestServer, type TestServer } from './lib/harness.ts';

describe('@kubernetes/client-node', () => {
  let ts: TestServer;
  let kc: KubeConfig;
  let core: CoreV1Api;
  before(async () => {
    ts = await startTestServer();
    kc = new KubeConfig();
    kc.loadFromFile(ts.server.adminConfigPath);
    core = kc.makeApiClient(CoreV1Api);
  });
  after(() => ts.stop());

  it('lists namespaces', async () => {
    const list = await core.listNamespace();
    const names = list.items.map((n) => n.metadata?.name);
    assert.ok(names.includes('default'), names.join(','));
    assert.equal(list.items.find((n) => n.metadata?.name === 'default')?.status?.phase, 'Active');
  });

  it('creates a config map and reads it back', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'from-node' }, data: { a: '1' } },
    });
    assert.equal(created.metadata?.name, 'from-node');
    assert.match(created.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
    const read = await core.readNamespacedConfigMap({ name: 'from-node', namespace: 'default' });
    assert.deepEqual(read.data, { a: '1' });
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    assert.ok(list.items.some((c) => c.metadata?.name === 'from-node'));
  });

  it('applies with the apply content type, and conflicts across field managers', async () => {
    const asApply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { a: '1' } };
    const first = await core.patchNamespacedConfigMap(
      { name: 'applied', namespace: 'default', body, fieldManager: 'node-app' },
      asApply,
    );
    assert.deepEqual(first.data, { a: '1' });
    const entry = first.metadata?.managedFields?.[0];
    assert.equal(entry?.manager, 'node-app');
    assert.equal(entry?.operation, 'Apply');
    assert.deepEqual(entry?.fieldsV1, { 'f:data': { 'f:a': {} } });
    await assert.rejects(
      core.patchNamespacedConfigMap(
        { name: 'applied', namespace: 'default', body: { ...body, data: { a: '2' } }, fieldManager: 'other' },
        asApply,
      ),
      (err: { code?: number; body?: unknown; message?: string }) =>
        err.code === 409 &&
        /conflict with \\*"node-app\\*": \.data\.a/.test(`${JSON.stringify(err.body)} ${err.message}`),
    );
    const forced = await core.patchNamespacedConfigMap(
      {
        name: 'applied',
        namespace: 'default',
        body: { ...body, data: { a: '2' } },
        fieldManager: 'other',
        force: true,
      },
      asApply,
    );
    assert.deepEqual(forced.data, { a: '2' });
  });

  it('an informer sees add, update and delete', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const informer = makeInformer<V1ConfigMap>(kc, path, () =>
      core.listNamespacedConfigMap({ namespace: 'default' }),
    );
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata?.name} ${o.data?.v}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    await informer.start();
    try {
      await core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: 'watched' }, data: { v: '1' } },
      });
      await eventually(() => seen.includes('add watched'), 10_000, 'the add event');
      const current = await core.readNamespacedConfigMap({ name: 'watched', namespace: 'default' });
      await core.replaceNamespacedConfigMap({
        name: 'watched',
        namespace: 'default',
        body: { ...current, data: { v: '2' } },
      });
      await eventually(() => seen.includes('update watched 2'), 10_000, 'the update event');
      await core.deleteNamespacedConfigMap({ name: 'watched', namespace: 'default' });
      await eventually(() => seen.includes('delete watched'), 10_000, 'the delete event');
    } finally {
      await informer.stop();
    }
  });
});

describe('@kubernetes/client-node informer across watch restarts', () => {
  let ts: TestServer;
  let kc: KubeConfig;
  let core: CoreV1Api;
  before(async () => {
    // Watches end after 1-2 s and history lasts 1 s, so the informer both resumes and re-lists.
    ts = await startTestServer({ minRequestTimeoutSeconds: 1, compactionIntervalMs: 1000 });
    kc = new KubeConfig();
    kc.loadFromFile(ts.server.adminConfigPath);
    core = kc.makeApiClient(CoreV1Api);
  });
  after(() => ts.stop());

  it('keeps seeing every change, once, while its watches end and restart', async () => {
    const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/default/configmaps', () =>
      core.listNamespacedConfigMap({ namespace: 'default' }),
    );
    const adds: string[] = [];
    const errors: unknown[] = [];
    // Only the test's own objects: the control plane publishes its CA bundle in every namespace.
    const ours = (o: V1ConfigMap) => String(o.metadata?.name).startsWith('r-');
    informer.on('add', (o) => {
      if (ours(o)) adds.push(String(o.metadata?.name));
    });
    informer.on('error', (err) => errors.push(err));
    await informer.start();
    try {
      for (let i = 0; i < 8; i++) {
        await core.createNamespacedConfigMap({
          namespace: 'default',
          body: { metadata: { name: `r-${i}` } },
        });
        await new Promise((r) => setTimeout(r, 600));
      }
      await eventually(() => adds.length >= 8, 10_000, 'every add');
      assert.deepEqual([...adds].sort(), Array.from({ length: 8 }, (_, i) => `r-${i}`).sort());
      assert.deepEqual(errors, []);
      assert.equal(informer.list().filter(ours).length, 8);
    } finally {
      await informer.stop();
    }
  });
});
