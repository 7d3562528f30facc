// The reflector through an informer over the fake cluster, on a fake clock: streaming lists and
// the 4xx fallback to paged lists, watch options as client-go sends them, bookmarks, relists after
// 410 (from a watch, and from a list at a compacted revision), re-watches after a closed watch or
// a refused connection, and backoff after a failed list.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { internalError } from '../../machinery/status.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { FakeCluster } from '../testing/fake-cluster.ts';
import { SharedIndexInformer } from './shared-informer.ts';

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const cm = (name: string): ApiObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

function setup(opts: { streamingLists?: boolean; pageSize?: number } = {}) {
  const clock = new FakeClock();
  const cluster = new FakeCluster({ clock, streamingLists: opts.streamingLists });
  const client = cluster.resource(CM, 'ns');
  const errors: unknown[] = [];
  const informer = new SharedIndexInformer(cluster.resource(CM), {
    clock,
    onError: (e) => errors.push(e),
    reflector: { random: () => 0, pageSize: opts.pageSize },
  });
  return { clock, cluster, client, informer, errors };
}

/** Waits until the reflector sleeps in its backoff (no watch open), then lets the backoff pass. */
async function passBackoff(clock: FakeClock, cluster: FakeCluster): Promise<void> {
  await waitUntil(
    () => cluster.openWatches() === 0 && clock.pendingTimers() > 0,
    'the reflector to back off',
  );
  await clock.advance(1000);
}

const names = (xs: ApiObject[]) => xs.map((x) => x.metadata?.name).sort();

describe('Reflector', () => {
  it('fills the cache with a streaming list and goes on watching on the same stream', async () => {
    const { cluster, client, informer, errors } = setup();
    await client.create(cm('a'));
    await client.create(cm('b'));
    informer.start();
    await informer.waitForSync();
    assert.deepEqual(names(informer.lister.list()), ['a', 'b']);
    assert.equal(cluster.callsOf('list').length, 0);
    const [w] = cluster.callsOf('watch');
    assert.equal(w.opts?.sendInitialEvents, true);
    assert.equal(w.opts?.resourceVersionMatch, 'NotOlderThan');
    assert.equal(w.opts?.allowWatchBookmarks, true);
    assert.equal(w.opts?.timeoutSeconds, 300);
    assert.equal(informer.lastSyncResourceVersion(), String(cluster.revisions.current()));
    const c = await client.create(cm('c'));
    await waitUntil(() => informer.lister.get('ns/c') !== undefined, 'the watch to deliver c');
    assert.equal(informer.lastSyncResourceVersion(), c.metadata?.resourceVersion);
    assert.equal(cluster.callsOf('watch').length, 1);
    informer.stop();
    await informer.whenStopped();
    assert.equal(cluster.openWatches(), 0);
    assert.deepEqual(errors, []);
  });

  it('falls back to a paged list at "0" when the server refuses streaming lists, and stops asking', async () => {
    const { clock, cluster, client, informer } = setup({ streamingLists: false });
    for (let i = 0; i < 1200; i++) await client.create(cm(`o${String(i).padStart(4, '0')}`));
    informer.start();
    await informer.waitForSync();
    assert.equal(informer.lister.list().length, 1200);
    await waitUntil(() => cluster.openWatches() === 1, 'the watch');
    const lists = cluster.callsOf('list');
    assert.deepEqual(
      lists.map((l) => [l.opts?.resourceVersion, l.opts?.limit, l.opts?.continue !== undefined]),
      [
        ['0', 500, false],
        [undefined, 500, true],
        [undefined, 500, true],
      ],
    );
    const watches = cluster.callsOf('watch');
    assert.equal(watches.length, 2);
    assert.equal(watches[0].opts?.sendInitialEvents, true);
    assert.equal(watches[1].opts?.sendInitialEvents, undefined);
    assert.equal(watches[1].opts?.resourceVersion, String(cluster.revisions.current()));
    assert.equal(watches[1].opts?.allowWatchBookmarks, true);
    const t = watches[1].opts?.timeoutSeconds as number;
    assert.ok(t >= 300 && t < 600, String(t));
    const rv = informer.lastSyncResourceVersion();
    cluster.expireWatches();
    await passBackoff(clock, cluster);
    // Lists came in pages, so the relist at the known revision is paged too.
    await waitUntil(() => cluster.callsOf('list').length === 6, 'the relist');
    const relist = cluster.callsOf('list')[3];
    assert.deepEqual([relist.opts?.resourceVersion, relist.opts?.limit], [rv, 500]);
    assert.equal(cluster.callsOf('watch').filter((w) => w.opts?.sendInitialEvents).length, 1);
    informer.stop();
  });

  it('moves its resourceVersion on with bookmarks', async () => {
    const { cluster, informer } = setup();
    informer.start();
    await informer.waitForSync();
    await cluster
      .resource({ group: '', version: 'v1', resource: 'secrets' }, 'ns')
      .create({ metadata: { name: 's' } });
    cluster.bookmark(CM);
    const now = String(cluster.revisions.current());
    await waitUntil(() => informer.lastSyncResourceVersion() === now, 'the bookmark');
    informer.stop();
  });

  it('relists after a 410 Expired watch and deletes what vanished with its last known state', async () => {
    const { clock, cluster, client, informer } = setup({ streamingLists: false });
    await client.create(cm('a'));
    await client.create(cm('b'));
    informer.start();
    await informer.waitForSync();
    const seen: string[] = [];
    informer.addEventHandler({
      add: (o, initial) => seen.push(`add ${o.metadata?.name}${initial ? ' initial' : ''}`),
      update: (_o, n) => seen.push(`update ${n.metadata?.name}`),
      delete: (o) => seen.push(`delete ${o.metadata?.name} ${o.metadata?.resourceVersion}`),
    });
    const lastB = informer.lister.get('ns/b')?.metadata?.resourceVersion;
    await waitUntil(() => seen.length === 2, 'the late handler adds');
    cluster.expireWatches();
    await waitUntil(() => cluster.openWatches() === 0, 'the watch to end');
    await client.delete('b');
    await client.create(cm('c'));
    await passBackoff(clock, cluster);
    await waitUntil(() => seen.length === 4, 'the relist');
    assert.deepEqual(seen.slice(2).sort(), ['add c', `delete b ${lastB}`]);
    assert.deepEqual(names(informer.lister.list()), ['a', 'c']);
    informer.stop();
  });

  it('relists from scratch when its watch and then its paged list hit a compacted revision', async () => {
    const { clock, cluster, client, informer, errors } = setup({ streamingLists: false, pageSize: 2 });
    for (const n of ['a', 'b', 'c']) await client.create(cm(n));
    informer.start();
    await informer.waitForSync();
    const rv = informer.lastSyncResourceVersion();
    await waitUntil(() => cluster.openWatches() === 1, 'the watch');
    // Hold the next watch until history past the informer's revision is compacted.
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const remove = cluster.intercept(async (call) => {
      if (call.verb === 'watch') await gate;
    });
    await client.create(cm('d'));
    await waitUntil(() => informer.lister.get('ns/d') !== undefined, 'd');
    cluster.closeWatches();
    await waitUntil(() => cluster.callsOf('watch').length === 3, 'the re-watch');
    await client.create(cm('e'));
    cluster.compact();
    remove();
    release();
    await passBackoff(clock, cluster);
    await waitUntil(() => informer.lister.get('ns/e') !== undefined, 'the relist');
    const lists = cluster.callsOf('list').map((l) => [l.opts?.resourceVersion, l.opts?.limit]);
    const after = lists.slice(lists.findIndex((l) => l[0] !== '0' && l[0] !== undefined));
    assert.deepEqual(after.slice(0, 2), [
      [String(Number(rv) + 1), 2],
      [undefined, 2],
    ]);
    assert.deepEqual(errors, []);
    informer.stop();
  });

  it('re-watches from its resourceVersion after a closed watch or a refused connection, without relisting', async () => {
    const { clock, cluster, client, informer } = setup();
    informer.start();
    await informer.waitForSync();
    await client.create(cm('a'));
    await waitUntil(() => informer.lister.get('ns/a') !== undefined, 'a');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    cluster.failNext('watch', refused);
    cluster.closeWatches();
    await passBackoff(clock, cluster);
    await waitUntil(() => cluster.openWatches() === 1, 'the new watch');
    const watches = cluster.callsOf('watch');
    assert.equal(watches.length, 3);
    assert.equal(watches[2].opts?.resourceVersion, informer.lastSyncResourceVersion());
    assert.equal(watches[2].opts?.sendInitialEvents, undefined);
    assert.equal(cluster.callsOf('list').length, 0);
    informer.stop();
  });

  it('reports a failed list and tries again after a backoff', async () => {
    const { clock, cluster, client, informer, errors } = setup({ streamingLists: false });
    await client.create(cm('a'));
    cluster.failNext('list', internalError(new Error('etcd is down')));
    informer.start();
    await waitUntil(() => errors.length === 1, 'the failure');
    assert.match(String(errors[0]), /failed to list configmaps\.v1: Internal error occurred: etcd is down/);
    assert.equal(informer.hasSynced(), false);
    await passBackoff(clock, cluster);
    await informer.waitForSync();
    assert.deepEqual(names(informer.lister.list()), ['a']);
    informer.stop();
  });
});
