import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isJoined } from '../encoded.ts';
import type { WatchEvent } from '../interface.ts';
import { openSqliteStorage } from '../sqlite/index.ts';
import { runStorageConformance } from '../testing/conformance.ts';
import { CachedStorage } from './cached-storage.ts';

let dir = '';
let n = 0;
const open = (opts: ConstructorParameters<typeof CachedStorage>[1] = {}) =>
  new CachedStorage(
    openSqliteStorage({ path: join(dir, `store-${n++}.db`), progressNotifyIntervalMs: 200 }),
    {
      progressNotifyIntervalMs: 200,
      ...opts,
    },
  );

// The cache must keep every promise a backend makes.
runStorageConformance('watch cache over sqlite', {
  async setup() {
    dir = mkdtempSync(join(tmpdir(), 'apiserver-test-cacher-'));
  },
  async teardown() {
    rmSync(dir, { recursive: true, force: true });
  },
  open: async () => open(),
  progressNotifyWithinMs: 600,
});

/** Resolves once `done` holds (checked every 5 ms), or fails after thirty seconds (a busy machine is slow). */
async function waitFor(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 30_000) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('watch cache specifics', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiserver-test-cacher-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hands every reader a private copy, so nothing a caller does can change the cache', async () => {
    const store = open();
    await store.create('/x/a', { metadata: { name: 'a' }, data: { k: 'v' } });
    const one = (await store.list('/x/')).items[0];
    (one.data as Record<string, string>).k = 'changed';
    const two = (await store.list('/x/', { at: { kind: 'notOlderThan', revision: 0 } })).items[0];
    assert.deepEqual(two.data, { k: 'v' });
    const got = await store.get('/x/a', { at: { kind: 'notOlderThan', revision: 0 } });
    (got.metadata as Record<string, unknown>).name = 'changed';
    const again = await store.get('/x/a', { at: { kind: 'notOlderThan', revision: 0 } });
    assert.equal(again.metadata?.name, 'a');
    await store.close();
  });

  it('lists carry each object as its JSON body, without kind and apiVersion', async () => {
    const store = open();
    await store.create('/e/a', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a' },
      data: { k: 'v' },
    });
    const list = await store.list('/e/');
    assert.equal(list.encoded?.length, 1);
    const item = list.encoded?.[0];
    assert.deepEqual(item?.typeMeta, { kind: 'ConfigMap', apiVersion: 'v1' });
    const body = JSON.parse(item === undefined ? '' : item.text()) as Record<string, unknown>;
    assert.equal(body.kind, undefined);
    assert.deepEqual(body.data, { k: 'v' });
    assert.equal(item?.revision, Number(list.items[0].metadata?.resourceVersion));
    assert.deepEqual(list.items[0], { ...item?.typeMeta, ...body });
    await store.close();
  });

  it('a whole collection lists as packed blocks, and replaced bodies stay readable', async () => {
    const store = open();
    for (let i = 0; i < 150; i++) {
      await store.create(`/b/${String(i).padStart(3, '0')}`, {
        metadata: { name: `n${i}` },
        data: { v: 'ü'.repeat(i % 3) },
      });
    }
    const first = await store.list('/b/');
    const runs = first.runs ?? [];
    assert.ok(
      runs.some((r) => isJoined(r)),
      'whole blocks come joined',
    );
    const joined = runs.map((r) => (isJoined(r) ? r.joined.toString() : r.text())).join(',');
    assert.deepEqual(JSON.parse(`[${joined}]`), first.items);
    // A change after packing: the list taken before it still reads the old body, the next the new.
    const old = first.encoded?.[7];
    await store.guaranteedUpdate('/b/007', ({ current }) => ({ ...(current ?? {}), data: { v: 'new' } }));
    assert.deepEqual(JSON.parse(old?.text() ?? ''), { metadata: first.items[7].metadata, data: { v: 'ü' } });
    const second = await store.list('/b/');
    assert.deepEqual(second.items[7].data, { v: 'new' });
    const again = (second.runs ?? []).map((r) => (isJoined(r) ? r.joined.toString() : r.text())).join(',');
    assert.deepEqual(JSON.parse(`[${again}]`), second.items);
    await store.close();
  });

  it('watchers of one event share one frozen decoded object, decoded only when read', async () => {
    const store = open();
    await store.list('/w/');
    const a = store.watch('/w/', { revision: 0 });
    const b = store.watch('/w/', { revision: 0 });
    await store.create('/w/x', { metadata: { name: 'x' } });
    const first = async (w: typeof a) => {
      for await (const ev of w) return ev;
      throw new Error('no event');
    };
    const [ea, eb] = await Promise.all([first(a), first(b)]);
    assert.equal(ea.encoded, eb.encoded);
    assert.equal(ea.object, eb.object);
    assert.ok(Object.isFrozen(ea.object.metadata));
    a.stop();
    b.stop();
    await store.close();
  });

  it('selects by metadata without decoding when the predicate says it reads metadata only', async () => {
    const store = open();
    await store.create('/m/a', { metadata: { name: 'a', labels: { app: 'x' } }, data: { k: '1' } });
    await store.create('/m/b', { metadata: { name: 'b' }, data: { k: '2' } });
    const seen: unknown[] = [];
    const predicate = Object.assign(
      (obj: { metadata?: { labels?: Record<string, string> } } & Record<string, unknown>) => {
        seen.push(obj);
        return obj.metadata?.labels?.app === 'x';
      },
      { metadataOnly: true },
    );
    const list = await store.list('/m/', { predicate });
    assert.deepEqual(
      list.items.map((o) => o.metadata?.name),
      ['a'],
    );
    assert.ok(
      seen.every((o) => (o as Record<string, unknown>).data === undefined),
      'only metadata was read',
    );
    const full = await store.list('/m/', { predicate: (o) => (o.data as { k: string }).k === '2' });
    assert.deepEqual(
      full.items.map((o) => o.metadata?.name),
      ['b'],
    );
    await store.close();
  });

  it('a watch older than the kept window is replayed by the backend', async () => {
    const store = open({ historyCapacity: 2 });
    for (const name of ['a', 'b', 'c', 'd']) await store.create(`/y/${name}`, { metadata: { name } });
    await store.list('/y/');
    const events: string[] = [];
    const w = store.watch('/y/', { revision: 1 });
    for await (const ev of w) {
      events.push(`${ev.type} ${ev.object.metadata?.name}`);
      if (events.length === 3) break;
    }
    assert.deepEqual(events, ['ADDED b', 'ADDED c', 'ADDED d']);
    await store.close();
  });

  it('pages a list from a snapshot of its first page, and from the backend once the snapshot expired', async () => {
    const store = open({ snapshotTtlMs: 300 });
    for (const name of ['a', 'b', 'c']) await store.create(`/p/${name}`, { metadata: { name } });
    const cached = (await store.list('/p/')).encoded ?? [];
    const first = await store.list('/p/', { limit: 1 });
    assert.equal(first.encoded?.[0], cached[0], 'the first page comes from the cache');
    assert.equal(first.remainingItemCount, 2);
    await store.delete('/p/b');
    const second = await store.list('/p/', { limit: 1, continue: first.continue });
    assert.equal(second.encoded?.[0], cached[1], 'later pages come from the same snapshot');
    assert.equal(second.items[0].metadata?.name, 'b');
    assert.equal(second.revision, first.revision);
    await new Promise((r) => setTimeout(r, 350));
    const third = await store.list('/p/', { limit: 1, continue: second.continue });
    assert.equal(third.items[0].metadata?.name, 'c');
    assert.equal(third.encoded, undefined, 'an expired snapshot hands over to the backend');
    assert.equal(third.revision, first.revision);
    assert.equal(third.continue, undefined);
    await store.close();
  });

  it('a watcher whose consumer declines takes what it missed when it resumes, in order, shared', async () => {
    const store = open();
    await store.list('/k/');
    const sinks = [0, 1].map(() => {
      const sink = { seen: [] as WatchEvent[], accepting: false, ended: false };
      const w = store.watch('/k/', { revision: 0 });
      w.attach(
        (ev) => {
          sink.seen.push(ev);
          return sink.accepting;
        },
        () => {
          sink.ended = true;
        },
      );
      return { sink, w };
    });
    const names = (seen: WatchEvent[]) => seen.map((ev) => `${ev.type} ${ev.object.metadata?.name}`);
    await store.create('/k/a', { metadata: { name: 'a' } });
    await store.create('/other/x', { metadata: { name: 'x' } });
    await store.create('/k/b', { metadata: { name: 'b' } });
    await store.delete('/k/a');
    await store.create('/k/c', { metadata: { name: 'c' } });
    await waitFor(() => sinks.every(({ sink }) => sink.seen.length > 0));
    for (const { sink } of sinks) assert.deepEqual(names(sink.seen), ['ADDED a'], 'declined after the first');

    const [first, second] = sinks;
    first.sink.accepting = true;
    first.w.resume();
    assert.deepEqual(
      names(first.sink.seen),
      ['ADDED a', 'ADDED b', 'DELETED a', 'ADDED c'],
      'what it missed, handed over before resume returns',
    );
    second.w.resume();
    assert.deepEqual(names(second.sink.seen), ['ADDED a', 'ADDED b'], 'one at a time while declining');
    second.sink.accepting = true;
    second.w.resume();
    assert.deepEqual(names(second.sink.seen), names(first.sink.seen));
    for (let i = 1; i < 4; i++) {
      assert.equal(
        second.sink.seen[i].encoded,
        first.sink.seen[i].encoded,
        'one encoding per event for both',
      );
    }

    await store.create('/k/d', { metadata: { name: 'd' } });
    await waitFor(() => sinks.every(({ sink }) => sink.seen.length === 5));
    for (const { sink } of sinks)
      assert.equal(names(sink.seen)[4], 'ADDED d', 'handed events as they come again');
    for (const { w } of sinks) w.stop();
    assert.ok(sinks.every(({ sink }) => sink.ended));
    await store.close();
  });

  it('keeps no event for later when no watcher is parked to take it', async () => {
    // A collection the test can ask for; the flag reaches a fresh context's global `gc`.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const store = open();
    await store.list('/g/');
    const watch = store.watch('/g/', { revision: 0 });
    const refs: WeakRef<WatchEvent>[] = [];
    const consumed = (async () => {
      for await (const ev of watch) if (refs.push(new WeakRef(ev)) === 5) break;
    })();
    for (let i = 0; i < 5; i++) await store.create(`/g/${i}`, { metadata: { name: `g${i}` } });
    await consumed;
    // WeakRefs made in this turn hold their targets until it ends.
    await new Promise((r) => setImmediate(r));
    gc();
    assert.deepEqual(
      refs.flatMap((r, i) => (r.deref() === undefined ? [] : [i])),
      [],
      'the events a caught-up watcher was handed, still referenced',
    );
    await store.close();
  });

  it('ends a declining watcher that falls as far behind as the backlog bound, or out of the window', async () => {
    for (const opts of [{ watcherBacklog: 20 }, { historyCapacity: 16 }]) {
      const store = open(opts);
      await store.list('/b/');
      let ended = false;
      let seen = 0;
      store.watch('/b/', { revision: 0 }).attach(
        () => {
          seen++;
          return false;
        },
        () => {
          ended = true;
        },
      );
      const reader = store.watch('/b/', { revision: 0 });
      let read = 0;
      const reading = (async () => {
        for await (const _ of reader) if (++read === 140) break;
      })();
      for (let i = 0; i < 140; i++) await store.create(`/b/${i}`, { metadata: { name: String(i) } });
      await reading;
      assert.equal(read, 140, 'the reading watcher got every event');
      await waitFor(() => ended);
      assert.equal(seen, 1, JSON.stringify(opts));
      await store.close();
    }
  });

  it('bookmarks a busy watcher at the bookmark frequency, and a parked one once it has caught up', async () => {
    const store = open({ progressNotifyIntervalMs: 10, bookmarkFrequencyMs: 50 });
    await store.list('/k/');
    const busy: WatchEvent[] = [];
    store.watch('/k/', { revision: 0, progressNotify: true }).attach(
      (ev) => {
        busy.push(ev);
        return true;
      },
      () => {},
    );
    // A consumer that now and then declines more for a moment, as a writer waiting for its turn
    // does: parked, and behind until it resumes and catches up.
    const parked: WatchEvent[] = [];
    const slow = store.watch('/k/', { revision: 0, progressNotify: true });
    slow.attach(
      (ev) => {
        parked.push(ev);
        if (parked.length % 25 !== 0) return true;
        setTimeout(() => slow.resume(), 2);
        return false;
      },
      () => {},
    );
    const bookmarks = (evs: WatchEvent[]) => evs.filter((e) => e.type === 'BOOKMARK').length;
    // Writes keep coming faster than the progress interval: neither watcher is ever idle.
    for (let i = 0; bookmarks(busy) < 3 || bookmarks(parked) < 3; i++) {
      if (i > 20_000) assert.fail(`bookmarks: busy ${bookmarks(busy)}, parked ${bookmarks(parked)}`);
      await store.create(`/k/${i}`, { metadata: { name: String(i) } });
    }
    for (const seen of [busy, parked]) {
      // Each bookmark claims only what came before it: revisions never go back.
      const revisions = seen.map((e) => e.revision);
      assert.deepEqual(
        revisions,
        [...revisions].sort((a, b) => Number(a) - Number(b)),
      );
      assert.deepEqual(
        seen.filter((e) => e.type !== 'BOOKMARK').map((e) => e.object.metadata?.name),
        Array.from({ length: seen.filter((e) => e.type !== 'BOOKMARK').length }, (_, i) => String(i)),
      );
    }
    await store.close();
  });

  it('gives a watcher whose bookmark came due while parked one as soon as it has caught up', async () => {
    const store = open({ progressNotifyIntervalMs: 10, bookmarkFrequencyMs: 30 });
    const start = (await store.list('/p/')).revision;
    // The events exist before the watchers do, so the slow one is behind from its first moment
    // (created after it, a slow create on a busy machine could let a bookmark come due first).
    for (let i = 0; i < 5; i++) await store.create(`/p/${i}`, { metadata: { name: String(i) } });
    const seen: WatchEvent[] = [];
    // Declines after every event: it stays parked until resumed, one event per resume.
    const slow = store.watch('/p/', { revision: start, progressNotify: true });
    slow.attach(
      (ev) => {
        seen.push(ev);
        return false;
      },
      () => {},
    );
    const ticker: WatchEvent[] = [];
    store.watch('/p/', { revision: start, progressNotify: true }).attach(
      (ev) => {
        ticker.push(ev);
        return true;
      },
      () => {},
    );
    // Time passes, bookmarks come due: the watcher that keeps up has had two.
    await waitFor(() => ticker.filter((e) => e.type === 'BOOKMARK').length >= 2);
    assert.equal(seen.filter((e) => e.type === 'BOOKMARK').length, 0, 'none while behind');
    // Resumed until it has every event, and once more: it is handed its bookmark in that step.
    for (let i = 0; i < 6; i++) slow.resume();
    assert.deepEqual(
      seen.map((e) => e.type),
      ['ADDED', 'ADDED', 'ADDED', 'ADDED', 'ADDED', 'BOOKMARK'],
    );
    assert.equal(seen[5].revision, seen[4].revision);
    await store.close();
  });

  it('closes a watcher that falls too far behind, and only that one', async () => {
    const store = open({ watcherBacklog: 5 });
    await store.list('/s/');
    const slow = store.watch('/s/', { revision: 0 });
    const fast = store.watch('/s/', { revision: 0 });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of fast) {
        seen.push(String(ev.object.metadata?.name));
        if (seen.length === 8) break;
      }
    })();
    for (let i = 0; i < 8; i++) await store.create(`/s/${i}`, { metadata: { name: String(i) } });
    await reading;
    assert.equal(seen.length, 8, 'the reading watcher got every event');
    let slowCount = 0;
    for await (const _ of slow) slowCount++;
    assert.ok(slowCount <= 5, `the slow watcher was cut off after its backlog, got ${slowCount}`);
    await store.close();
  });
});
