// The REST client against a real server started in-process, with the admin configuration it writes:
// create, get, list, update, every patch type, apply, delete, deleteCollection, watch (JSON and
// protobuf), errors as the server's Status, a proxy tunnel, and no stream resets on whole reads.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../machinery/object.ts';
import { ApiError, isNotFound, type Status } from '../machinery/status.ts';
import { groupName, namingProfile, UPSTREAM_ALIASES } from '../naming/index.ts';
import { startTestApiServer, type TestApiServer, waitFor } from '../server/testing/index.ts';
import type { ObjectList, WatchEvent, WatchStream } from './api.ts';
import { restOptionsFromPlatconfig } from './config.ts';
import { RestClient } from './rest-client.ts';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const profile = namingProfile('spec');
const cm = (name: string, data: Record<string, string> = { k: 'v' }, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

/** Collects events until `until` holds for the list, then stops the watch. */
async function collect(w: WatchStream, until: (evs: WatchEvent[]) => boolean): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const ev of w) {
    out.push(ev);
    if (until(out)) break;
  }
  return out;
}

describe('REST client against a server', () => {
  let t: TestApiServer;
  let client: RestClient;
  before(async () => {
    t = await startTestApiServer();
    client = new RestClient(restOptionsFromPlatconfig(t.server.adminConfigPath));
  });
  after(async () => {
    client?.close();
    await t?.stop();
  });

  it('creates, gets, lists, updates and deletes, with the server Status on failures', async () => {
    const cms = client.resource(CONFIGMAPS, 'default');
    const created = await cms.create(cm('crud'));
    assert.equal(created.metadata?.name, 'crud');
    assert.ok(created.metadata?.uid);
    const got = await cms.get('crud');
    assert.equal(got.metadata?.resourceVersion, created.metadata?.resourceVersion);
    const updated = await cms.update({ ...got, data: { k: 'changed' } });
    assert.equal((updated.data as Record<string, string>).k, 'changed');
    const listed = await cms.list();
    assert.ok(listed.items.some((i) => i.metadata?.name === 'crud'));
    assert.ok(listed.metadata.resourceVersion);

    const dup = await cms.create(cm('crud')).catch((e: unknown) => e);
    assert.ok(dup instanceof ApiError);
    assert.deepEqual(
      [dup.code, dup.reason, dup.message],
      [409, 'AlreadyExists', 'configmaps "crud" already exists'],
    );
    const stale = await cms.update({ ...got, data: { k: 'stale' } }).catch((e: unknown) => e);
    assert.equal((stale as ApiError).reason, 'Conflict');

    const deleted = (await cms.delete('crud')) as Status;
    assert.equal(deleted.kind, 'Status');
    assert.equal(deleted.status, 'Success');
    const missing = await cms.get('crud').catch((e: unknown) => e);
    assert.ok(isNotFound(missing));
    assert.equal((missing as ApiError).message, 'configmaps "crud" not found');
  });

  it('patches in every patch type and applies with a field manager and force', async () => {
    const cms = client.resource(CONFIGMAPS, 'default');
    await cms.create(cm('patched', { a: '1' }));
    let p = await cms.patch('patched', 'merge', { data: { b: '2' } });
    assert.deepEqual(p.data, { a: '1', b: '2' });
    p = await cms.patch('patched', 'strategic', { data: { c: '3' } });
    assert.deepEqual(p.data, { a: '1', b: '2', c: '3' });
    p = await cms.patch('patched', 'json', [{ op: 'remove', path: '/data/a' }]);
    assert.deepEqual(p.data, { b: '2', c: '3' });

    const applied = await cms.apply(cm('applied', { x: '1' }), { fieldManager: 'tester' });
    assert.deepEqual(applied.data, { x: '1' });
    const managers = (
      (applied.metadata?.managedFields ?? []) as { manager: string; operation: string }[]
    ).map((m) => `${m.manager}/${m.operation}`);
    assert.deepEqual(managers, ['tester/Apply']);
    const conflict = await cms.apply(cm('applied', { x: '2' }), { fieldManager: 'other' }).catch((e) => e);
    assert.equal((conflict as ApiError).code, 409);
    const forced = await cms.apply(cm('applied', { x: '2' }), { fieldManager: 'other', force: true });
    assert.deepEqual(forced.data, { x: '2' });

    const dry = await cms.create(cm('dry-run'), { dryRun: true });
    assert.equal(dry.metadata?.name, 'dry-run');
    assert.ok(isNotFound(await cms.get('dry-run').catch((e) => e)));
    const strict = await cms
      .create({ ...cm('strict'), bogus: 1 } as ApiObject, { fieldValidation: 'Strict' })
      .catch((e) => e);
    assert.equal((strict as ApiError).code, 400);
    assert.match((strict as ApiError).message, /unknown field "bogus"/);
  });

  it('lists by label selector, in pages, and deletes a collection', async () => {
    const cms = client.resource(CONFIGMAPS, 'default');
    for (const n of ['sel-a', 'sel-b', 'sel-c']) await cms.create(cm(n, {}, { set: 'x' }));
    await cms.create(cm('sel-other', {}, { set: 'y' }));
    const page = await cms.list({ labelSelector: 'set=x', limit: 2 });
    assert.equal(page.items.length, 2);
    assert.ok(page.metadata.continue);
    const rest = await cms.list({ labelSelector: 'set=x', limit: 2, continue: page.metadata.continue });
    assert.deepEqual(
      [...page.items, ...rest.items].map((i) => i.metadata?.name),
      ['sel-a', 'sel-b', 'sel-c'],
    );
    const all = client.resource(CONFIGMAPS);
    const across = await all.list({ fieldSelector: 'metadata.name=sel-a' });
    assert.deepEqual(
      across.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`),
      ['default/sel-a'],
    );
    const gone = (await cms.deleteCollection({ labelSelector: 'set=x' })) as ObjectList;
    assert.equal(gone.items.length, 3);
    assert.deepEqual(
      (await cms.list({ labelSelector: 'set' })).items.map((i) => i.metadata?.name),
      ['sel-other'],
    );
  });

  it('deletes with options: a failing precondition, propagation, the object when finalizers hold it', async () => {
    const cms = client.resource(CONFIGMAPS, 'default');
    await cms.create({ ...cm('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    const pre = await cms.delete('held', { preconditions: { uid: 'not-the-uid' } }).catch((e) => e);
    assert.equal((pre as ApiError).code, 409);
    const left = (await cms.delete('held', { propagationPolicy: 'Foreground' })) as ApiObject;
    assert.ok(left.metadata?.deletionTimestamp);
    assert.deepEqual(left.metadata?.finalizers?.sort(), ['example.com/hold', 'foregroundDeletion']);
    await cms.patch('held', 'merge', { metadata: { finalizers: null } });
    await waitFor(
      () => cms.get('held').then(() => false, isNotFound),
      (gone) => gone,
      'the held ConfigMap to go',
    );
  });

  it('watches from a resourceVersion, sees bookmarks when allowed, and stop() ends the iteration', async () => {
    const cms = client.resource(CONFIGMAPS, 'watched');
    await client.resource({ group: '', version: 'v1', resource: 'namespaces' }).create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'watched' },
    });
    const from = (await cms.list()).metadata.resourceVersion;
    const w = await cms.watch({ resourceVersion: from, allowWatchBookmarks: true });
    await cms.create(cm('w1'));
    await cms.patch('w1', 'merge', { data: { k: 'v2' } });
    await cms.delete('w1');
    const evs = await collect(w, (es) => es.some((e) => e.type === 'DELETED'));
    assert.deepEqual(
      evs.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED w1', 'MODIFIED w1', 'DELETED w1'],
    );

    const w2 = await cms.watch({ resourceVersion: from });
    const iterating = collect(w2, () => false);
    w2.stop();
    assert.deepEqual(await iterating, []);

    const ac = new AbortController();
    const w3 = await cms.watch({ signal: ac.signal });
    const iterating3 = collect(w3, () => false);
    ac.abort();
    assert.deepEqual(await iterating3, []);
  });

  it('a watch the server ends (timeoutSeconds) ends the iteration', async () => {
    const w = await client.resource(CONFIGMAPS, 'default').watch({ timeoutSeconds: 1, resourceVersion: '0' });
    const evs = await collect(w, () => false);
    assert.ok(evs.every((e) => e.type === 'ADDED'));
  });

  it('sends and reads protobuf when configured, and watches in protobuf framing', async () => {
    const pb = new RestClient({
      ...restOptionsFromPlatconfig(t.server.adminConfigPath),
      contentType: UPSTREAM_ALIASES.protobufMediaType,
    });
    try {
      const cms = pb.resource(CONFIGMAPS, 'default');
      const res = await pb.send({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
      assert.match(String(res.headers['content-type']), /protobuf/);
      const from = (await cms.list()).metadata.resourceVersion;
      const w = await cms.watch({ resourceVersion: from });
      const created = await cms.create(cm('proto', { p: 'b' }));
      assert.deepEqual(created.data, { p: 'b' });
      assert.equal(created.kind, 'ConfigMap');
      const evs = await collect(w, (es) => es.length > 0);
      assert.equal(evs[0]?.type, 'ADDED');
      assert.deepEqual(evs[0]?.object.data, { p: 'b' });
      const missing = await cms.get('nope').catch((e) => e);
      assert.equal((missing as ApiError).message, 'configmaps "nope" not found');
      assert.equal(((await cms.delete('proto')) as Status).status, 'Success');
    } finally {
      pb.close();
    }
  });

  it("refuses a cluster's proxy-url when the client is made, naming it", () => {
    for (const proxyUrl of ['http://user:secret@127.0.0.1:3128', 'socks5://127.0.0.1:1080']) {
      assert.throws(
        () => new RestClient({ server: t.server.url, proxyUrl }),
        (err: Error) =>
          err.message ===
          `proxy URL "${proxyUrl}": connecting through a proxy is not supported by this client`,
      );
    }
  });

  it('reads whole responses without resetting their streams (the server would end a connection resetting too fast)', async () => {
    const c = new RestClient({ ...restOptionsFromPlatconfig(t.server.adminConfigPath), qps: -1 });
    try {
      const cms = c.resource(CONFIGMAPS, 'default');
      await cms.create(cm('many-reads'));
      // Past nghttp2's rapid-reset burst (1,000 on Node 20) if each read ended in a reset.
      let next = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (next++ < 1200) await cms.get('many-reads');
        }),
      );
    } finally {
      c.close();
    }
  });

  it('builds a Status as client-go does when a failure carries none', async () => {
    const err = await client.error(
      { method: 'GET', path: '/x', groupResource: { group: 'apps', resource: 'widgets' }, name: 'w' },
      404,
      { 'content-type': 'text/plain' },
      Buffer.from('404 page not found\n'),
    );
    assert.deepEqual(
      [err.code, err.reason, err.message],
      [404, 'NotFound', 'the server could not find the requested resource (get widgets.apps w)'],
    );
    const e500 = await client.error(
      { method: 'POST', path: '/x' },
      502,
      { 'content-type': 'text/plain' },
      Buffer.from('bad gateway'),
    );
    assert.equal(
      e500.message,
      'an error on the server ("bad gateway") has prevented the request from succeeding',
    );
  });

  it('posts a subresource create to the parent object (a SelfSubjectReview names the admin)', async () => {
    const reviews = client.resource({
      group: groupName(profile, 'authentication'),
      version: 'v1',
      resource: 'selfsubjectreviews',
    });
    const review = await reviews.create({
      apiVersion: `${groupName(profile, 'authentication')}/v1`,
      kind: 'SelfSubjectReview',
    });
    assert.equal((review.status as { userInfo: { username: string } }).userInfo.username, 'admin');
    const sas = client.resource({ group: '', version: 'v1', resource: 'serviceaccounts' }, 'default');
    await sas.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
    const token = await sas.create(
      {
        apiVersion: `${groupName(profile, 'authentication')}/v1`,
        kind: 'TokenRequest',
        spec: { audiences: [] },
      } as ApiObject,
      { subresource: 'token', name: 'robot' },
    );
    assert.ok((token.status as { token: string }).token.length > 20);
  });
});
