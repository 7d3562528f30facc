// dryRun=All through every write verb: the answer looks like the real one, storage does not move.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../testing/index.ts';

describe('dryRun over HTTP', () => {
  let t: TestApiServer;
  const CM = '/api/v1/namespaces/default/configmaps';
  const body = (name: string, v = '1') =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, labels: { set: 'dry' } },
      data: { v },
    });
  /** The collection's names, data and resourceVersions: everything a dry run must leave alone. */
  const snapshot = async () =>
    (await t.call({ path: `${CM}?labelSelector=set%3Ddry` })).body.replace(/"resourceVersion":"\d+",/, '');

  before(async () => {
    t = await startTestApiServer();
    for (const n of ['a', 'b'])
      assert.equal((await t.call({ method: 'POST', path: CM, body: body(n) })).status, 201);
  });
  after(() => t.stop());

  it('create answers the would-be object and stores nothing', async () => {
    const before = await snapshot();
    const r = await t.call({ method: 'POST', path: `${CM}?dryRun=All`, body: body('c') });
    assert.equal(r.status, 201, r.body);
    const obj = r.json() as { metadata: { name: string; uid?: string; creationTimestamp?: string } };
    assert.equal(obj.metadata.name, 'c');
    assert.ok(obj.metadata.uid && obj.metadata.creationTimestamp);
    assert.equal((await t.call({ path: `${CM}/c` })).status, 404);
    assert.equal(await snapshot(), before);
  });

  it('a dry-run create still fails validation and conflicts like the real one', async () => {
    const invalid = await t.call({ method: 'POST', path: `${CM}?dryRun=All`, body: body('Bad_Name') });
    assert.equal(invalid.status, 422);
    const exists = await t.call({ method: 'POST', path: `${CM}?dryRun=All`, body: body('a') });
    assert.equal(exists.status, 409);
  });

  it('update, patch, delete and deletecollection leave storage as it was', async () => {
    const before = await snapshot();
    const put = await t.call({ method: 'PUT', path: `${CM}/a?dryRun=All`, body: body('a', '2') });
    assert.equal(put.status, 200, put.body);
    assert.equal((put.json() as { data: { v: string } }).data.v, '2');
    const patch = await t.call({
      method: 'PATCH',
      path: `${CM}/a?dryRun=All`,
      body: '{"data":{"v":"3"}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patch.status, 200, patch.body);
    assert.equal((patch.json() as { data: { v: string } }).data.v, '3');
    assert.equal((await t.call({ method: 'DELETE', path: `${CM}/a?dryRun=All` })).status, 200);
    const dc = await t.call({ method: 'DELETE', path: `${CM}?dryRun=All&labelSelector=set%3Ddry` });
    assert.equal(dc.status, 200, dc.body);
    assert.equal(await snapshot(), before);
  });

  it('dryRun in a DeleteOptions body counts too', async () => {
    const before = await snapshot();
    const r = await t.call({
      method: 'DELETE',
      path: `${CM}/b`,
      body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] }),
    });
    assert.equal(r.status, 200, r.body);
    assert.equal(await snapshot(), before);
  });

  // Upstream validates the options object: 422 Invalid naming the options kind, not a 400.
  for (const [method, path, kind] of [
    ['POST', CM, 'CreateOptions'],
    ['PUT', `${CM}/a`, 'UpdateOptions'],
    ['DELETE', `${CM}/a`, 'DeleteOptions'],
  ] as const) {
    it(`${method} with a dryRun other than All is refused and changes nothing`, async () => {
      const before = await snapshot();
      const r = await t.call({
        method,
        path: `${path}?dryRun=Yes`,
        body: method === 'DELETE' ? undefined : body('a', '9'),
      });
      assert.equal(r.status, 422, r.body);
      const s = r.json() as { reason: string; message: string };
      assert.equal(s.reason, 'Invalid');
      assert.match(
        s.message,
        new RegExp(
          `^${kind}\\.meta\\S* "" is invalid: dryRun: Unsupported value: \\["Yes"\\]: supported values: "All"$`,
        ),
      );
      assert.equal(await snapshot(), before);
    });
  }
});
