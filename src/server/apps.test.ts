// Deployments over HTTP: defaults on create, status only through /status, the scale view.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';

const D = '/apis/apps/v1/namespaces/default/deployments';
const body = (name: string, replicas = 1) =>
  JSON.stringify({
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
      },
    },
  });
type Dep = {
  metadata: { resourceVersion: string; generation: number };
  spec: { replicas: number };
  status?: Record<string, unknown>;
};

describe('deployments over HTTP', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t.stop());

  it('create fills defaults and an empty status; the main resource never writes status', async () => {
    const created = await t.call({ method: 'POST', path: D, body: body('a') });
    assert.equal(created.status, 201, created.body);
    const d = created.json() as Dep;
    assert.deepEqual(d.status, {});
    assert.equal(d.metadata.generation, 1);
    const withStatus = { ...d, status: { replicas: 9 }, spec: { ...d.spec, replicas: 2 } };
    const put = (
      await t.call({ method: 'PUT', path: `${D}/a`, body: JSON.stringify(withStatus) })
    ).json() as Dep;
    assert.deepEqual(put.status, {});
    assert.equal(put.metadata.generation, 2);
    const status = await t.call({
      method: 'PUT',
      path: `${D}/a/status`,
      body: JSON.stringify({
        ...put,
        status: { replicas: 2, readyReplicas: 1 },
        spec: { ...put.spec, replicas: 7 },
      }),
    });
    const after = status.json() as Dep;
    assert.deepEqual(after.status, { replicas: 2, readyReplicas: 1 });
    assert.equal(after.spec.replicas, 2);
    assert.equal(after.metadata.generation, 2);
  });

  it('a /status write carries the annotations but not the labels of a Deployment, labels and annotations of a ReplicaSet', async () => {
    const created = (await t.call({ method: 'POST', path: D, body: body('meta') })).json() as Dep & {
      metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
    };
    const sent = {
      ...created,
      metadata: { ...created.metadata, labels: { tier: 'web' }, annotations: { note: 'rev 2' } },
      status: { replicas: 1 },
    };
    const d = (
      await t.call({ method: 'PUT', path: `${D}/meta/status`, body: JSON.stringify(sent) })
    ).json() as typeof created;
    assert.deepEqual(d.metadata.annotations, { note: 'rev 2' });
    assert.equal(d.metadata.labels, undefined);
    assert.deepEqual(d.status, { replicas: 1 });

    const RS = '/apis/apps/v1/namespaces/default/replicasets';
    const rs = (await t.call({ method: 'POST', path: RS, body: body('meta-rs') })).json() as typeof created;
    const rsSent = {
      ...rs,
      metadata: { ...rs.metadata, labels: { tier: 'web' }, annotations: { note: 'x' } },
    };
    const written = (
      await t.call({ method: 'PUT', path: `${RS}/meta-rs/status`, body: JSON.stringify(rsSent) })
    ).json() as typeof created;
    assert.deepEqual(written.metadata.labels, { tier: 'web' });
    assert.deepEqual(written.metadata.annotations, { note: 'x' });
  });

  it('scale: get, put with a stale resourceVersion (409), an invalid count (422), and a put that lands', async () => {
    await t.call({ method: 'POST', path: D, body: body('s', 2) });
    const scale = (await t.call({ path: `${D}/s/scale` })).json() as {
      metadata: { resourceVersion: string };
      spec: { replicas: number };
    };
    assert.equal(scale.spec.replicas, 2);
    const stale = await t.call({
      method: 'PUT',
      path: `${D}/s/scale`,
      body: JSON.stringify({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 's', resourceVersion: '1' },
        spec: { replicas: 4 },
      }),
    });
    assert.equal(stale.status, 409, stale.body);
    assert.match(
      String(stale.json().message),
      /^Operation cannot be fulfilled on deployments\.apps "s": the object has been modified/,
    );
    const invalid = await t.call({
      method: 'PUT',
      path: `${D}/s/scale`,
      body: JSON.stringify({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 's' },
        spec: { replicas: -1 },
      }),
    });
    assert.equal(invalid.status, 422, invalid.body);
    assert.equal(
      invalid.json().message,
      'Scale.autoscaling "s" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    const ok = await t.call({
      method: 'PUT',
      path: `${D}/s/scale`,
      body: JSON.stringify({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 's', resourceVersion: scale.metadata.resourceVersion },
        spec: { replicas: 4 },
      }),
    });
    assert.equal(ok.status, 200, ok.body);
    assert.equal((ok.json() as { spec: { replicas: number } }).spec.replicas, 4);
    assert.equal(((await t.call({ path: `${D}/s` })).json() as Dep).spec.replicas, 4);
    const wrongKind = await t.call({
      method: 'PUT',
      path: `${D}/s/scale`,
      body: body('s').replace('{', '{"kind":"Deployment","apiVersion":"apps/v1",'),
    });
    assert.equal(wrongKind.status, 400);
  });

  it('discovery puts both kinds in the all category with scale as autoscaling/v1 Scale', async () => {
    const doc = (await t.call({ path: '/apis/apps/v1' })).json() as {
      resources: { name: string; categories?: string[]; group?: string; kind: string }[];
    };
    const byName = Object.fromEntries(doc.resources.map((r) => [r.name, r]));
    assert.deepEqual(byName.deployments.categories, ['all']);
    assert.deepEqual(byName.replicasets.categories, ['all']);
    assert.equal(byName['deployments/scale'].group, 'autoscaling');
    assert.equal(byName['deployments/scale'].kind, 'Scale');
  });
});
