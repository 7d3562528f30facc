import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ApiObject } from '../machinery/object.ts';
import { openSqliteStorage, type SqliteStorage } from '../storage/sqlite/index.ts';
import { GenericStore } from './generic-store.ts';
import { STANDARD_VERBS } from './resource.ts';
import { rejectionStatus, testStrategy } from './testing/store-fixtures.ts';

const strategy = testStrategy;

const resource = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  singular: 'configmap',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  namespaced: true,
  verbs: STANDARD_VERBS,
  subresources: {},
};

const cm = (
  name: string,
  data: Record<string, string> = {},
  meta: Record<string, unknown> = {},
): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...meta },
  data,
});

const status = rejectionStatus;

describe('generic store', () => {
  let storage: SqliteStorage;
  let store: GenericStore;
  beforeEach(() => {
    storage = openSqliteStorage({ path: ':memory:' });
    store = new GenericStore(storage, resource, strategy());
  });
  afterEach(() => storage.close());

  it('create fills uid, creationTimestamp, namespace and type, and get returns the same', async () => {
    const created = await store.create('ns', cm('a', { k: 'v' }));
    assert.match(created.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.match(created.metadata?.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(created.metadata?.namespace, 'ns');
    assert.equal(created.metadata?.generation, undefined);
    assert.deepEqual(await store.get('ns', 'a'), created);
    assert.equal(await storage.count('/configmaps/ns/'), 1);
  });

  it('generateName picks a random suffix; a kind that tracks generation starts at 1', async () => {
    const g = new GenericStore(storage, resource, strategy({ tracksGeneration: true }));
    const a = await g.create('ns', { metadata: { generateName: 'web-' } });
    assert.match(a.metadata?.name ?? '', /^web-[a-z0-9]{5}$/);
    assert.equal(a.metadata?.generation, 1);
  });

  it('a duplicate name is 409 AlreadyExists; a missing one 404 NotFound', async () => {
    await store.create('ns', cm('a'));
    const dup = await status(store.create('ns', cm('a')));
    assert.deepEqual(
      [dup.code, dup.reason, dup.message],
      [409, 'AlreadyExists', 'configmaps "a" already exists'],
    );
    const nf = await status(store.get('ns', 'zz'));
    assert.deepEqual([nf.code, nf.message], [404, 'configmaps "zz" not found']);
  });

  it('an invalid name is 422 Invalid with a cause, and nothing is stored', async () => {
    const s = await status(store.create('ns', cm('Bad_Name')));
    assert.equal(s.code, 422);
    assert.equal(s.reason, 'Invalid');
    assert.match(
      s.message ?? '',
      /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"/,
    );
    assert.equal(s.details?.causes?.[0]?.field, 'metadata.name');
    assert.equal(await storage.count('/configmaps/'), 0);
  });

  it('a body namespace that differs from the URL is 400', async () => {
    const s = await status(store.create('ns', cm('a', {}, { namespace: 'other' })));
    assert.equal(s.code, 400);
    assert.equal(
      s.message,
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });

  it('update keeps uid and creationTimestamp; a stale resourceVersion is 409 Conflict', async () => {
    const a = await store.create('ns', cm('a', { v: '1' }));
    const body = cm(
      'a',
      { v: '2' },
      { resourceVersion: a.metadata?.resourceVersion, creationTimestamp: '2000-01-01T00:00:00Z' },
    );
    const { object: b, created } = await store.update('ns', 'a', body);
    assert.equal(created, false);
    assert.equal(b.metadata?.uid, a.metadata?.uid);
    assert.equal(b.metadata?.creationTimestamp, a.metadata?.creationTimestamp);
    assert.deepEqual(b.data, { v: '2' });
    const stale = await status(
      store.update('ns', 'a', cm('a', { v: '3' }, { resourceVersion: a.metadata?.resourceVersion })),
    );
    assert.deepEqual(
      [stale.code, stale.reason, stale.message],
      [
        409,
        'Conflict',
        'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
      ],
    );
    assert.deepEqual((await store.get('ns', 'a')).data, { v: '2' });
  });

  it('update: name mismatch 400, missing object 404 unless the kind creates on update', async () => {
    const s = await status(store.update('ns', 'a', cm('b')));
    assert.deepEqual(
      [s.code, s.message],
      [400, 'the name of the object (b) does not match the name on the URL (a)'],
    );
    assert.equal((await status(store.update('ns', 'a', cm('a')))).code, 404);
    const upsert = new GenericStore(storage, resource, strategy({ allowCreateOnUpdate: true }));
    const r = await upsert.update('ns', 'a', cm('a', { made: 'yes' }));
    assert.equal(r.created, true);
    assert.deepEqual((await store.get('ns', 'a')).data, { made: 'yes' });
  });

  it('patch runs the change inside the update on the current object, with no read of its own', async () => {
    const a = await store.create('ns', cm('a', { v: '1' }));
    let reads = 0;
    const counted = new Proxy(storage, {
      get(target, prop, receiver) {
        if (prop === 'get') reads++;
        return Reflect.get(target, prop, receiver);
      },
    });
    const patching = new GenericStore(counted, resource, strategy());
    const seen: ApiObject[] = [];
    const b = await patching.patch('ns', 'a', (current) => {
      seen.push(structuredClone(current));
      // The change may edit what it is given: it is the change's own copy.
      current.data = { ...(current.data as Record<string, string>), w: '2' };
      return current;
    });
    assert.equal(reads, 0);
    assert.equal(seen.length, 1);
    assert.deepEqual([seen[0].kind, seen[0].apiVersion], ['ConfigMap', 'v1']);
    assert.equal(seen[0].metadata?.resourceVersion, a.metadata?.resourceVersion);
    assert.deepEqual(b.data, { v: '1', w: '2' });
    assert.deepEqual((await store.get('ns', 'a')).data, { v: '1', w: '2' });
  });

  it('patch: a missing object is 404 even where update creates; what the change throws is the answer', async () => {
    const upsert = new GenericStore(storage, resource, strategy({ allowCreateOnUpdate: true }));
    const missing = await status(upsert.patch('ns', 'a', (current) => current));
    assert.deepEqual([missing.code, missing.message], [404, 'configmaps "a" not found']);
    assert.equal(await storage.count('/configmaps/ns/'), 0);
    const a = await store.create('ns', cm('a', { v: '1' }));
    const renamed = await status(
      store.patch('ns', 'a', (current) => ({ ...current, metadata: { name: 'b' } })),
    );
    assert.deepEqual(
      [renamed.code, renamed.message],
      [400, 'the name of the object (b) does not match the name on the URL (a)'],
    );
    await assert.rejects(
      store.patch('ns', 'a', () => {
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.deepEqual(await store.get('ns', 'a'), a);
  });

  it('generation moves only when the strategy sees a spec change', async () => {
    const g = new GenericStore(
      storage,
      resource,
      strategy({
        tracksGeneration: true,
        specChanged: (n, o) => JSON.stringify(n.spec) !== JSON.stringify(o.spec),
      }),
    );
    const a = await g.create('ns', { metadata: { name: 'd' }, spec: { replicas: 1 } });
    const b = (
      await g.update('ns', 'd', { metadata: { name: 'd', labels: { x: 'y' } }, spec: { replicas: 1 } })
    ).object;
    assert.equal(b.metadata?.generation, 1);
    const c = (await g.update('ns', 'd', { metadata: { name: 'd' }, spec: { replicas: 2 } })).object;
    assert.equal(c.metadata?.generation, 2);
    assert.equal(a.metadata?.generation, 1);
  });

  it('delete answers a Success Status, or the object for kinds that return it; preconditions hold', async () => {
    const a = await store.create('ns', cm('a'));
    const stale = await status(store.delete('ns', 'a', { preconditions: { uid: 'nope' } }));
    assert.equal(stale.code, 409);
    const done = await store.delete('ns', 'a');
    assert.deepEqual(done, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'a', kind: 'configmaps', uid: a.metadata?.uid },
    });
    assert.equal((await status(store.delete('ns', 'a'))).code, 404);
    const returning = new GenericStore(storage, resource, strategy({ returnDeletedObject: true }));
    await returning.create('ns', cm('b'));
    assert.equal((await returning.delete('ns', 'b')).kind, 'ConfigMap');
  });

  it('dry run validates and answers like the real thing but stores nothing', async () => {
    const d = await store.create('ns', cm('a'), { dryRun: true });
    assert.equal(d.metadata?.name, 'a');
    assert.equal(await storage.count('/configmaps/'), 0);
    await store.create('ns', cm('b', { v: '1' }));
    const before = await storage.currentRevision();
    await store.update('ns', 'b', cm('b', { v: '2' }), { dryRun: true });
    await store.delete('ns', 'b', { dryRun: true });
    assert.equal(await storage.currentRevision(), before);
    assert.deepEqual((await store.get('ns', 'b')).data, { v: '1' });
    assert.equal((await status(store.create('ns', cm('b'), { dryRun: true }))).code, 409);
  });

  it('lists a namespace or every namespace, with selectors, pages and bare items', async () => {
    await store.create('ns1', cm('a', {}, { labels: { app: 'web' } }));
    await store.create('ns1', cm('b', {}, { labels: { app: 'db' } }));
    await store.create('ns2', cm('c', {}, { labels: { app: 'web' } }));
    const one = await store.list('ns1');
    assert.equal(one.kind, 'ConfigMapList');
    assert.equal(one.apiVersion, 'v1');
    assert.equal(one.metadata.resourceVersion, String(await storage.currentRevision()));
    assert.deepEqual(
      one.items.map((o) => o.metadata?.name),
      ['a', 'b'],
    );
    assert.equal('kind' in one.items[0], false);
    const web = await store.list('', { labelSelector: 'app=web' });
    assert.deepEqual(
      web.items.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`),
      ['ns1/a', 'ns2/c'],
    );
    const byName = await store.list('', { fieldSelector: 'metadata.name=b' });
    assert.deepEqual(
      byName.items.map((o) => o.metadata?.name),
      ['b'],
    );
    const page = await store.list('', { limit: 2 });
    assert.equal(page.items.length, 2);
    assert.equal(page.metadata.remainingItemCount, 1);
    const rest = await store.list('', { limit: 2, continue: page.metadata.continue });
    assert.deepEqual(
      rest.items.map((o) => o.metadata?.name),
      ['c'],
    );
  });

  it('bad selectors are 400 with the parser message', async () => {
    const l = await status(store.list('', { labelSelector: 'a in (' }));
    assert.equal(l.code, 400);
    const f = await status(store.list('', { fieldSelector: 'spec.x=1' }));
    assert.deepEqual(
      [f.code, f.message],
      [400, '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"'],
    );
  });
});

describe('generic store streaming watch', () => {
  const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('hands a sink the state and its bookmark, then each change from the live watch itself', async () => {
    const storage = openSqliteStorage({ path: ':memory:' });
    const store = new GenericStore(storage, resource, testStrategy());
    await store.create('ns', cm('a'));
    const w = store.watch('ns', { sendInitialEvents: true, allowBookmarks: true, initialEventsEnd: ['end'] });
    const seen: string[] = [];
    let declining = false;
    let ended = false;
    w.attach(
      (ev) => {
        const annotated = ev.object.metadata?.annotations?.end === 'true' ? ' end' : '';
        seen.push(
          `${ev.type} ${ev.object.metadata?.name ?? ev.object.metadata?.resourceVersion}${annotated}`,
        );
        return !declining;
      },
      () => {
        ended = true;
      },
    );
    const inStep = () => w.resumesInStep === true;
    assert.equal(inStep(), false, 'the state is handed over by iteration');
    for (let i = 0; i < 100 && !inStep(); i++) await tick(5);
    assert.equal(inStep(), true, 'then the live watch is attached');
    assert.equal(seen.length, 2);
    assert.equal(seen[0], 'ADDED a');
    assert.match(seen[1], /^BOOKMARK \d+ end$/);

    declining = true;
    await store.create('ns', cm('b'));
    await store.create('ns', cm('c'));
    for (let i = 0; i < 100 && seen.length < 3; i++) await tick(5);
    await tick(20);
    assert.deepEqual(seen.slice(2), ['ADDED b'], 'a declined event holds back the next');
    declining = false;
    w.resume();
    assert.deepEqual(seen.slice(2), ['ADDED b', 'ADDED c'], 'resume hands it over before returning');
    w.stop();
    assert.equal(ended, true);
    await storage.close();
  });
});

describe('generic store over the watch cache', () => {
  it('hands every watcher the same wire object for one event', async () => {
    const { CachedStorage } = await import('../storage/cacher/index.ts');
    const storage = new CachedStorage(openSqliteStorage({ path: ':memory:' }));
    const store = new GenericStore(storage, resource, testStrategy());
    const revision = Number((await store.list('ns')).metadata.resourceVersion);
    const watches = [store.watch('ns', { revision }), store.watch('ns', { revision })];
    await store.create('ns', cm('shared'));
    const firsts = await Promise.all(
      watches.map(async (w) => (await w[Symbol.asyncIterator]().next()).value),
    );
    for (const w of watches) w.stop();
    assert.equal(firsts[0].type, 'ADDED');
    assert.equal(firsts[0].object, firsts[1].object);
    assert.equal(firsts[0].object.kind, 'ConfigMap');
    await storage.close();
  });
});
