import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ApiObject } from '../machinery/object.ts';
import { openSqliteStorage, type SqliteStorage } from '../storage/sqlite/index.ts';
import { GenericStore, type WireWatchEvent } from './generic-store.ts';
import { STANDARD_VERBS } from './resource.ts';
import type { Strategy } from './strategy.ts';
import { rejectionStatus, testStrategy } from './testing/store-fixtures.ts';

const strategy = (over: Partial<Strategy> = {}): Strategy =>
  testStrategy({
    tracksGeneration: true,
    hasStatus: true,
    specChanged: (a, b) => JSON.stringify(a.spec) !== JSON.stringify(b.spec),
    ...over,
  });

const resource = {
  group: 'example.test',
  version: 'v1',
  resource: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  namespaced: true,
  verbs: STANDARD_VERBS,
  subresources: { status: ['get', 'patch', 'update'] },
};

const widget = (name: string, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) =>
  ({ metadata: { name, ...meta }, spec: { size: 1 }, ...extra }) as ApiObject;

const status = rejectionStatus;

async function take(it: AsyncIterator<WireWatchEvent>, n: number): Promise<WireWatchEvent[]> {
  const out: WireWatchEvent[] = [];
  while (out.length < n) {
    const r = await it.next();
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

describe('generic store: status, finalizers, collections, watch', () => {
  let storage: SqliteStorage;
  let store: GenericStore;
  beforeEach(() => {
    storage = openSqliteStorage({ path: ':memory:' });
    store = new GenericStore(storage, resource, strategy());
  });
  afterEach(() => storage.close());

  it('a write to the main resource never changes status; /status changes only status', async () => {
    const a = await store.create('ns', widget('a', { status: { ready: true } }));
    const withStatus = await store.update(
      'ns',
      'a',
      { ...widget('a'), status: { ready: true } },
      {
        subresource: 'status',
      },
    );
    assert.deepEqual(withStatus.object.status, { ready: true });
    assert.deepEqual(withStatus.object.spec, { size: 1 });
    assert.equal(withStatus.object.metadata?.generation, 1, 'a status write is not a spec change');

    const main = await store.update('ns', 'a', {
      ...widget('a', { spec: { size: 2 } }, { labels: { x: 'y' } }),
      status: { ready: false },
    });
    assert.deepEqual(main.object.status, { ready: true }, 'status kept from the stored object');
    assert.equal(main.object.metadata?.generation, 2);
    assert.deepEqual(main.object.metadata?.labels, { x: 'y' });

    const viaStatus = await store.update(
      'ns',
      'a',
      { ...widget('a', { spec: { size: 9 } }, { labels: { changed: 'no' } }), status: { ready: false } },
      { subresource: 'status' },
    );
    assert.deepEqual(viaStatus.object.spec, { size: 2 }, 'spec kept on a status write');
    assert.deepEqual(viaStatus.object.metadata?.labels, { x: 'y' }, 'labels kept on a status write');
    assert.deepEqual(viaStatus.object.status, { ready: false });
    assert.equal(a.metadata?.uid, viaStatus.object.metadata?.uid);
  });

  it('a delete of an object with finalizers marks it; removing the last finalizer removes it', async () => {
    await store.create('ns', widget('a', {}, { finalizers: ['example.test/hold'] }));
    const marked = await store.delete('ns', 'a');
    assert.equal(marked.kind, 'Widget');
    assert.match(marked.metadata?.deletionTimestamp ?? '', /Z$/);
    assert.equal(marked.metadata?.deletionGracePeriodSeconds, 0);
    assert.ok(await store.get('ns', 'a'), 'still stored while a finalizer holds it');

    const again = await store.delete('ns', 'a');
    assert.equal(again.metadata?.deletionTimestamp, marked.metadata?.deletionTimestamp);

    const added = await status(
      store.update('ns', 'a', widget('a', {}, { finalizers: ['example.test/hold', 'example.test/more'] })),
    );
    assert.equal(added.code, 422);
    assert.match(added.message ?? '', /no new finalizers can be added if the object is being deleted/);

    const released = await store.update('ns', 'a', widget('a', {}, { finalizers: [] }));
    assert.equal(released.object.metadata?.deletionTimestamp, marked.metadata?.deletionTimestamp);
    const nf = await status(store.get('ns', 'a'));
    assert.equal(nf.code, 404);
  });

  it('a delete without finalizers answers a Success Status with details', async () => {
    const a = await store.create('ns', widget('a'));
    const out = (await store.delete('ns', 'a')) as unknown as Record<string, unknown>;
    assert.equal(out.kind, 'Status');
    assert.equal(out.status, 'Success');
    assert.deepEqual(out.details, {
      name: 'a',
      group: 'example.test',
      kind: 'widgets',
      uid: a.metadata?.uid,
    });
  });

  it('a dry-run delete changes nothing', async () => {
    await store.create('ns', widget('a'));
    await store.create('ns', widget('b', {}, { finalizers: ['x/y'] }));
    await store.delete('ns', 'a', { dryRun: true });
    const b = await store.delete('ns', 'b', { dryRun: true });
    assert.ok(b.metadata?.deletionTimestamp);
    assert.equal((await store.get('ns', 'a')).metadata?.name, 'a');
    assert.equal((await store.get('ns', 'b')).metadata?.deletionTimestamp, undefined);
  });

  it('deletecollection deletes what the selectors match and answers the list of it', async () => {
    await store.create('ns', widget('a', {}, { labels: { app: 'x' } }));
    await store.create('ns', widget('b', {}, { labels: { app: 'x' } }));
    await store.create('ns', widget('c', {}, { labels: { app: 'y' } }));
    await store.create('other', widget('d', {}, { labels: { app: 'x' } }));
    const out = await store.deleteCollection('ns', { labelSelector: 'app=x' });
    assert.equal(out.kind, 'WidgetList');
    assert.deepEqual(
      out.items.map((i) => i.metadata?.name),
      ['a', 'b'],
    );
    const left = await store.list('');
    assert.deepEqual(
      left.items.map((i) => i.metadata?.name),
      ['c', 'd'],
    );
    const byField = await store.deleteCollection('', { fieldSelector: 'metadata.name=d' });
    assert.deepEqual(
      byField.items.map((i) => i.metadata?.name),
      ['d'],
    );
    assert.equal(await storage.count('/example.test/widgets/'), 1);
  });

  it('watch sees ADDED, MODIFIED, DELETED with type meta, filtered by selectors', async () => {
    const w = store.watch('ns', { labelSelector: 'app=x' });
    const it = w[Symbol.asyncIterator]();
    await store.create('ns', widget('a', {}, { labels: { app: 'x' } }));
    await store.create('ns', widget('skip', {}, { labels: { app: 'y' } }));
    await store.update('ns', 'a', widget('a', { spec: { size: 3 } }, { labels: { app: 'x' } }));
    await store.delete('ns', 'a');
    const events = await take(it, 3);
    w.stop();
    assert.deepEqual(
      events.map((e) => [e.type, e.object.kind, e.object.apiVersion, e.object.metadata?.name]),
      [
        ['ADDED', 'Widget', 'example.test/v1', 'a'],
        ['MODIFIED', 'Widget', 'example.test/v1', 'a'],
        ['DELETED', 'Widget', 'example.test/v1', 'a'],
      ],
    );
  });

  it('a watch from a compacted revision ends with an ERROR event carrying a 410 Status', async () => {
    const a = await store.create('ns', widget('a'));
    await store.update('ns', 'a', widget('a', { spec: { size: 5 } }));
    const rev = await storage.currentRevision();
    await storage.compact(rev);
    const w = store.watch('ns', { revision: Number(a.metadata?.resourceVersion) - 1 });
    const [ev] = await take(w[Symbol.asyncIterator](), 1);
    w.stop();
    assert.equal(ev.type, 'ERROR');
    assert.equal(ev.object.kind, 'Status');
    assert.equal((ev.object as unknown as { code: number }).code, 410);
  });
});
