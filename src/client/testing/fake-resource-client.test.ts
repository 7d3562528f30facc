// The fake resource client behaves as the server does where informers and controllers depend on
// it: revisions, paging pinned to a revision, 410 below the compaction, watch replay and streaming
// lists, optimistic concurrency, and injected failures.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { ApiError } from '../../machinery/status.ts';
import type { WatchEvent, WatchStream } from '../api.ts';
import { FakeCluster } from './fake-cluster.ts';

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const cm = (name: string, labels?: Record<string, string>): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels },
});

async function take(w: WatchStream, n: number): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  const it = w[Symbol.asyncIterator]();
  while (out.length < n) {
    const r = await it.next();
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

async function rejects(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e;
  }
  assert.fail('expected a rejection');
}

describe('FakeResourceClient', () => {
  it('gives each write a new resourceVersion and lists at the current one', async () => {
    const c = new FakeCluster();
    const r = c.resource(CM, 'ns');
    const a = await r.create(cm('a'));
    const b = await r.create(cm('b'));
    assert.ok(Number(b.metadata?.resourceVersion) > Number(a.metadata?.resourceVersion));
    assert.equal(a.metadata?.namespace, 'ns');
    const list = await r.list();
    assert.equal(list.metadata.resourceVersion, b.metadata?.resourceVersion);
    assert.deepEqual(
      list.items.map((i) => i.metadata?.name),
      ['a', 'b'],
    );
    assert.equal((await rejects(r.create(cm('a')))).code, 409);
    assert.equal((await rejects(r.get('zz'))).message, 'configmaps "zz" not found');
    assert.throws(() => {
      (a.metadata as Record<string, unknown>).name = 'x';
    }, TypeError);
  });

  it('pages at the first page revision, and a compacted continue answers 410 Expired', async () => {
    const c = new FakeCluster();
    const r = c.resource(CM, 'ns');
    for (const n of ['a', 'b', 'c', 'd', 'e']) await r.create(cm(n));
    const p1 = await r.list({ limit: 2 });
    assert.equal(p1.items.length, 2);
    assert.equal(p1.metadata.remainingItemCount, 3);
    await r.create(cm('f'));
    const p2 = await r.list({ limit: 2, continue: p1.metadata.continue });
    const p3 = await r.list({ limit: 2, continue: p2.metadata.continue });
    assert.deepEqual(
      [...p2.items, ...p3.items].map((i) => i.metadata?.name),
      ['c', 'd', 'e'],
    );
    assert.equal(p3.metadata.continue, undefined);
    const q1 = await r.list({ limit: 2 });
    await r.create(cm('g'));
    c.compact();
    const err = await rejects(r.list({ limit: 2, continue: q1.metadata.continue }));
    assert.equal(err.code, 410);
    assert.equal(err.reason, 'Expired');
    const old = await rejects(r.list({ resourceVersion: '3', resourceVersionMatch: 'Exact' }));
    assert.match(old.message, /^too old resource version: 3 \(\d+\)$/);
  });

  it('replays a watch from a revision, then follows live changes across selectors', async () => {
    const c = new FakeCluster();
    const r = c.resource(CM, 'ns');
    const a = await r.create(cm('a', { x: '1' }));
    await r.create(cm('b', { x: '1' }));
    const w = await r.watch({ resourceVersion: a.metadata?.resourceVersion, labelSelector: 'x=1' });
    await r.update({ ...(await r.get('a')), metadata: { name: 'a', labels: { x: '2' } } });
    await r.delete('b');
    const evs = await take(w, 3);
    assert.deepEqual(
      evs.map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED b', 'DELETED a', 'DELETED b'],
    );
    w.stop();
    assert.equal(c.openWatches(), 0);
  });

  it('answers a watch below the compaction with an ERROR 410 event, and expires open watches', async () => {
    const c = new FakeCluster();
    const r = c.resource(CM, 'ns');
    await r.create(cm('a'));
    await r.create(cm('b'));
    c.compact();
    const [ev] = await take(await r.watch({ resourceVersion: '1' }), 2);
    assert.equal(ev.type, 'ERROR');
    assert.equal((ev.object as unknown as { code: number }).code, 410);
    const live = await r.watch({ resourceVersion: String(c.revisions.current()) });
    c.expireWatches();
    const evs = await take(live, 2);
    assert.equal(evs.length, 1);
    assert.equal((evs[0].object as unknown as { reason: string }).reason, 'Expired');
  });

  it('streams a list with the initial-events-end bookmark, or refuses it with 422', async () => {
    const c = new FakeCluster();
    const r = c.resource(CM, 'ns');
    await r.create(cm('a'));
    const w = await r.watch({
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: true,
    });
    const [added, bookmark] = await take(w, 2);
    assert.equal(added.type, 'ADDED');
    assert.equal(bookmark.type, 'BOOKMARK');
    assert.equal(bookmark.object.metadata?.annotations?.['k8s.io/initial-events-end'], 'true');
    w.stop();
    c.streamingLists = false;
    const err = await rejects(r.watch({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }));
    assert.equal(err.code, 422);
    assert.match(
      err.message,
      /sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled/,
    );
  });

  it('refuses a stale update with the optimistic-lock conflict, and fails calls on demand', async () => {
    const c = new FakeCluster();
    const r = c.resource(CM, 'ns');
    const a = await r.create(cm('a'));
    await r.update({ ...a, data: { k: 'v' } });
    const err = await rejects(r.update({ ...a, data: { k: 'w' } }));
    assert.equal(
      err.message,
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
    );
    const boom = new Error('connection refused');
    c.failNext('list', boom);
    await assert.rejects(r.list(), boom);
    await r.list();
    assert.equal(c.callsOf('list').length, 2);
  });

  it('keeps an object with finalizers until they are removed', async () => {
    const c = new FakeCluster({ freezeObjects: false });
    const r = c.resource(CM, 'ns');
    await r.create({ ...cm('a'), metadata: { name: 'a', finalizers: ['x/y'] } });
    const marked = (await r.delete('a')) as ApiObject;
    assert.ok(marked.metadata?.deletionTimestamp);
    await r.patch('a', 'merge', { metadata: { finalizers: null } });
    assert.equal((await rejects(r.get('a'))).code, 404);
  });
});
