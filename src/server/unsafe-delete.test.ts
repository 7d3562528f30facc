// The unsafe delete of an object whose stored bytes no longer decode, behind its feature gate:
// each rule of the spec's table, with the stored data damaged straight in the SQLite file.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSqlite } from '../storage/sqlite/driver.ts';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const OPTION = 'ignoreStoreReadErrorWithClusterBreakingPotential';

async function createAndCorrupt(t: TestApiServer, name: string): Promise<void> {
  const r = await t.call({ method: 'POST', path: CM, body: JSON.stringify({ metadata: { name } }) });
  assert.equal(r.status, 201, r.body);
  // Whichever SQLite driver the server runs on this Node.
  const db = openSqlite(join(t.dir, 'store.db'));
  db.prepare(
    'UPDATE log SET value = ? WHERE revision = (SELECT max(revision) FROM log WHERE key LIKE ?)',
  ).run('\u0000garbage', `%/configmaps/default/${name}`);
  db.close();
}

const deleteWith = (t: TestApiServer, name: string, options: Record<string, unknown>, query = '') =>
  t.call({
    method: 'DELETE',
    path: `${CM}/${name}${query}`,
    body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', ...options }),
  });

describe('unsafe deletion with the gate on', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer({ featureGates: { AllowUnsafeMalformedObjectDeletion: true } });
    await createAndCorrupt(t, 'broken');
    assert.equal(
      (await t.call({ method: 'POST', path: CM, body: '{"metadata":{"name":"fine"}}' })).status,
      201,
    );
  });
  after(() => t.stop());

  it('reads and normal deletes of the damaged object are internal errors', async () => {
    const get = await t.call({ path: `${CM}/broken` });
    assert.equal(get.status, 500, get.body);
    assert.equal(get.json().reason, 'InternalError');
    assert.equal((await t.call({ method: 'DELETE', path: `${CM}/broken` })).status, 500);
  });

  it('refuses the option beside any other delete option, naming each', async () => {
    const r = await deleteWith(t, 'broken', {
      [OPTION]: true,
      dryRun: ['All'],
      propagationPolicy: 'Background',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'x' },
    });
    assert.equal(r.status, 422, r.body);
    const message = String(r.json().message);
    for (const other of ['dryRun', 'propagationPolicy', 'gracePeriodSeconds', 'preconditions']) {
      assert.ok(
        message.includes(`${OPTION}: Invalid value: true: cannot be set together with .${other}`),
        message,
      );
    }
    const orphan = await deleteWith(t, 'broken', { [OPTION]: true, orphanDependents: true });
    assert.match(String(orphan.json().message), /cannot be set together with \.orphanDependents/);
    assert.equal((await t.call({ path: `${CM}/broken` })).status, 500, 'still there');
  });

  it('refuses the option for an object that reads fine', async () => {
    const r = await deleteWith(t, 'fine', { [OPTION]: true });
    assert.equal(r.status, 422, r.body);
    assert.equal(
      r.json().message,
      `configmaps "fine" is invalid: ${OPTION}: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option`,
    );
    assert.equal((await t.call({ path: `${CM}/fine` })).status, 200);
  });

  it('removes the damaged object, answering a Success Status without uid', async () => {
    const r = await t.call({ method: 'DELETE', path: `${CM}/broken?${OPTION}=true` });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'broken', kind: 'configmaps' },
    });
    assert.equal((await t.call({ path: `${CM}/broken` })).status, 404);
    const list = (await t.call({ path: CM })).json() as { items: { metadata: { name: string } }[] };
    assert.deepEqual(
      list.items.map((i) => i.metadata.name),
      ['fine'],
    );
  });
});

describe('unsafe deletion with the gate off (the default)', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
    await createAndCorrupt(t, 'broken');
  });
  after(() => t.stop());

  it('the option is dropped: the damaged object stays, a readable one deletes normally', async () => {
    assert.equal((await deleteWith(t, 'broken', { [OPTION]: true })).status, 500);
    assert.equal((await t.call({ path: `${CM}/broken` })).status, 500);
    assert.equal(
      (await t.call({ method: 'POST', path: CM, body: '{"metadata":{"name":"fine"}}' })).status,
      201,
    );
    assert.equal((await deleteWith(t, 'fine', { [OPTION]: true })).status, 200);
    assert.equal((await t.call({ path: `${CM}/fine` })).status, 404);
  });
});
