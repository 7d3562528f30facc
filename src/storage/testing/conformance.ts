// The storage conformance suite. Every backend (and later the watch cache) runs these same cases, so
// "works on SQLite" and "works on etcd" mean the same thing.

import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { isStorageError, type StorageErrorCode } from '../errors.ts';
import type { Storage, WatchEvent } from '../interface.ts';
import { WatchReader } from './watch-reader.ts';

export interface ConformanceBackend {
  /** Opens a store; every call gets one that sees no keys of earlier calls. */
  open(): Promise<Storage>;
  /** Runs once before the suite (for example to start a server). */
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  /** Longest time a watch with progressNotify may stay silent; bounds the bookmark test. */
  progressNotifyWithinMs: number;
  /**
   * Replaces the bytes stored for `key` with something that does not decode, behind the store's
   * back. Absent for a cache, which by design keeps serving what it decoded before.
   */
  corrupt?(store: Storage, key: string): Promise<void>;
}

function obj(name: string, data: Record<string, unknown> = {}, extra: ApiObject = {}): ApiObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, uid: `uid-${name}` }, data, ...extra };
}

function rv(o: ApiObject): number {
  return Number(o.metadata?.resourceVersion);
}

async function rejectsWith(p: Promise<unknown>, code: StorageErrorCode): Promise<Error> {
  try {
    await p;
  } catch (err) {
    assert.ok(isStorageError(err, code), `expected ${code}, got ${String(err)}`);
    return err as Error;
  }
  assert.fail(`expected ${code}, but the call succeeded`);
}

function names(items: ApiObject[]): string[] {
  return items.map((o) => o.metadata?.name ?? '');
}

function summary(events: WatchEvent[]): string[] {
  return events.map((e) => `${e.type} ${e.object.metadata?.name} ${JSON.stringify(e.object.data)}`);
}

export function runStorageConformance(backendName: string, backend: ConformanceBackend): void {
  describe(`storage conformance: ${backendName}`, () => {
    let store: Storage;
    const readers: WatchReader[] = [];
    const watch = (prefix: string, opts?: Parameters<Storage['watch']>[1]) => {
      const r = new WatchReader(store.watch(prefix, opts));
      readers.push(r);
      return r;
    };

    before(async () => {
      await backend.setup?.();
    });
    after(async () => {
      await backend.teardown?.();
    });
    const fresh = async () => {
      store = await backend.open();
    };
    afterEach(async () => {
      for (const r of readers.splice(0)) r.stop();
      await store?.close();
    });

    describe('create and get', () => {
      it('create returns the object with a resourceVersion that get returns too', async () => {
        await fresh();
        const created = await store.create('/t/a', obj('a', { k: 'v' }));
        assert.ok(rv(created) > 0);
        const got = await store.get('/t/a');
        assert.deepEqual(got, created);
        assert.deepEqual(got.data, { k: 'v' });
      });

      it('create on an existing key fails KeyExists and leaves the value', async () => {
        await fresh();
        await store.create('/t/a', obj('a', { k: '1' }));
        await rejectsWith(store.create('/t/a', obj('a', { k: '2' })), 'KeyExists');
        assert.deepEqual((await store.get('/t/a')).data, { k: '1' });
      });

      it('create refuses an object that already carries a resourceVersion', async () => {
        await fresh();
        const o = obj('a');
        o.metadata!.resourceVersion = '5';
        await rejectsWith(store.create('/t/a', o), 'InvalidObject');
        await rejectsWith(store.get('/t/a'), 'KeyNotFound');
      });

      it('get of a missing key fails KeyNotFound', async () => {
        await fresh();
        await rejectsWith(store.get('/t/missing'), 'KeyNotFound');
      });

      it('a deleted key can be created again', async () => {
        await fresh();
        await store.create('/t/a', obj('a', { gen: '1' }));
        await store.delete('/t/a');
        const again = await store.create('/t/a', obj('a', { gen: '2' }));
        assert.deepEqual((await store.get('/t/a')).data, { gen: '2' });
        assert.equal(rv(await store.get('/t/a')), rv(again));
      });

      it('revisions grow with every write and currentRevision follows them', async () => {
        await fresh();
        const a = await store.create('/t/a', obj('a'));
        const b = await store.create('/t/b', obj('b'));
        const a2 = await store.guaranteedUpdate('/t/a', ({ current }) => ({ ...current!, data: { x: '1' } }));
        assert.ok(rv(a) < rv(b) && rv(b) < rv(a2));
        assert.equal(await store.currentRevision(), rv(a2));
      });

      it('get at an exact older revision returns the value as it was', async () => {
        await fresh();
        const v1 = await store.create('/t/a', obj('a', { v: '1' }));
        await store.guaranteedUpdate('/t/a', ({ current }) => ({ ...current!, data: { v: '2' } }));
        const old = await store.get('/t/a', { at: { kind: 'exact', revision: rv(v1) } });
        assert.deepEqual(old.data, { v: '1' });
        assert.equal(rv(old), rv(v1));
        assert.deepEqual((await store.get('/t/a')).data, { v: '2' });
      });

      it('get not older than the current revision succeeds, a future one fails TooLargeResourceVersion', async () => {
        await fresh();
        const a = await store.create('/t/a', obj('a'));
        const got = await store.get('/t/a', { at: { kind: 'notOlderThan', revision: rv(a) } });
        assert.equal(rv(got), rv(a));
        const err = await rejectsWith(
          store.get('/t/a', { at: { kind: 'notOlderThan', revision: rv(a) + 1000 } }),
          'TooLargeResourceVersion',
        );
        assert.match(err.message, /Too large resource version/);
      });

      it('a value of 1 MiB round-trips intact', async () => {
        await fresh();
        const big = 'x'.repeat(1024 * 1024);
        await store.create('/t/big', obj('big', { big }));
        const got = await store.get('/t/big');
        assert.equal((got.data as { big: string }).big.length, big.length);
        assert.equal((got.data as { big: string }).big, big);
        const listed = await store.list('/t/');
        assert.equal((listed.items[0].data as { big: string }).big, big);
      });

      it('unicode and nested values round-trip intact', async () => {
        await fresh();
        const data = { emoji: 'ünïcødé ✓ 🚀', nested: { list: [1, 2.5, null, true, { a: 'b' }] } };
        await store.create('/t/u', obj('u', data));
        assert.deepEqual((await store.get('/t/u')).data, data);
      });
    });

    describe('undecodable values', { skip: backend.corrupt === undefined }, () => {
      it('reads fail CorruptObject, a normal delete too, and only an unsafe delete removes the key', async () => {
        const store = await backend.open();
        await store.create('/c/bad', obj('bad'));
        await store.create('/c/good', obj('good'));
        await backend.corrupt?.(store, '/c/bad');
        await rejectsWith(store.get('/c/bad'), 'CorruptObject');
        await rejectsWith(store.list('/c/'), 'CorruptObject');
        await rejectsWith(store.delete('/c/bad'), 'CorruptObject');
        await rejectsWith(store.delete('/c/good', { expectCorrupt: true }), 'InvalidObject');
        assert.equal((await store.get('/c/good')).metadata?.name, 'good');
        const before = await store.currentRevision();
        const gone = await store.delete('/c/bad', { expectCorrupt: true });
        assert.ok(rv(gone) > before);
        await rejectsWith(store.get('/c/bad'), 'KeyNotFound');
        assert.deepEqual(names((await store.list('/c/')).items), ['good']);
      });

      it('a watcher sees the unsafe delete end its watch with an error, and the store keeps serving', async () => {
        const s = await backend.open();
        await s.create('/w/bad', obj('bad'));
        await backend.corrupt?.(s, '/w/bad');
        const reader = new WatchReader(s.watch('/w/', { revision: await s.currentRevision() }));
        await s.delete('/w/bad', { expectCorrupt: true });
        const ev = await reader.next();
        assert.equal(ev?.type, 'ERROR');
        reader.stop();
        await s.create('/w/next', obj('next'));
        assert.equal((await s.get('/w/next')).metadata?.name, 'next');
      });
    });

    describe('list', () => {
      it('returns only keys under the prefix, in key order, at the current revision', async () => {
        await fresh();
        for (const n of ['c', 'a', 'b']) await store.create(`/p/ns1/${n}`, obj(n));
        await store.create('/p/ns10/z', obj('z'));
        await store.create('/q/ns1/y', obj('y'));
        const res = await store.list('/p/ns1/');
        assert.deepEqual(names(res.items), ['a', 'b', 'c']);
        assert.equal(res.revision, await store.currentRevision());
        assert.equal(res.continue, undefined);
        assert.equal(res.remainingItemCount, undefined);
      });

      it('an empty prefix range lists nothing but still reports the revision', async () => {
        await fresh();
        await store.create('/p/a', obj('a'));
        const res = await store.list('/nothing/');
        assert.deepEqual(res.items, []);
        assert.equal(res.revision, await store.currentRevision());
      });

      it('each item carries its own resourceVersion', async () => {
        await fresh();
        const a = await store.create('/p/a', obj('a'));
        const b = await store.create('/p/b', obj('b'));
        const res = await store.list('/p/');
        assert.deepEqual(res.items.map(rv), [rv(a), rv(b)]);
      });

      it('deleted keys do not appear', async () => {
        await fresh();
        await store.create('/p/a', obj('a'));
        await store.create('/p/b', obj('b'));
        await store.delete('/p/a');
        assert.deepEqual(names((await store.list('/p/')).items), ['b']);
      });

      it('pages with limit and continue, with remaining counts, until the end', async () => {
        await fresh();
        for (let i = 0; i < 7; i++) await store.create(`/p/k${i}`, obj(`k${i}`));
        const p1 = await store.list('/p/', { limit: 3 });
        assert.deepEqual(names(p1.items), ['k0', 'k1', 'k2']);
        assert.equal(p1.remainingItemCount, 4);
        assert.ok(p1.continue);
        const p2 = await store.list('/p/', { limit: 3, continue: p1.continue });
        assert.deepEqual(names(p2.items), ['k3', 'k4', 'k5']);
        assert.equal(p2.remainingItemCount, 1);
        const p3 = await store.list('/p/', { limit: 3, continue: p2.continue });
        assert.deepEqual(names(p3.items), ['k6']);
        assert.equal(p3.continue, undefined);
        assert.equal(p3.remainingItemCount, undefined);
        assert.equal(p1.revision, p2.revision);
        assert.equal(p2.revision, p3.revision);
      });

      it('a limit equal to the count returns everything and no continue', async () => {
        await fresh();
        for (let i = 0; i < 3; i++) await store.create(`/p/k${i}`, obj(`k${i}`));
        const res = await store.list('/p/', { limit: 3 });
        assert.equal(res.items.length, 3);
        assert.equal(res.continue, undefined);
      });

      it('a paged list at a fixed revision stays consistent while writes continue', async () => {
        await fresh();
        for (let i = 0; i < 10; i++) await store.create(`/p/k${i}`, obj(`k${i}`, { v: 'old' }));
        const p1 = await store.list('/p/', { limit: 4 });
        // Writes between pages: a new key inside the range, an update, and a delete.
        await store.create('/p/k55', obj('k55'));
        await store.guaranteedUpdate('/p/k6', ({ current }) => ({ ...current!, data: { v: 'new' } }));
        await store.delete('/p/k8');
        const rest: ApiObject[] = [];
        let token = p1.continue;
        while (token) {
          const page = await store.list('/p/', { limit: 4, continue: token });
          assert.equal(page.revision, p1.revision);
          rest.push(...page.items);
          token = page.continue;
        }
        const all = [...p1.items, ...rest];
        assert.deepEqual(names(all), ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
        assert.ok(all.every((o) => (o.data as { v: string }).v === 'old'));
        // A fresh list sees the new state.
        const now = await store.list('/p/');
        assert.ok(names(now.items).includes('k55'));
        assert.ok(!names(now.items).includes('k8'));
      });

      it('a predicate filters items, pages by matches and reports no remaining count', async () => {
        await fresh();
        for (let i = 0; i < 10; i++) {
          await store.create(
            `/p/k${i}`,
            obj(`k${i}`, {}, { metadata: { name: `k${i}`, labels: { even: String(i % 2 === 0) } } }),
          );
        }
        const predicate = (o: ApiObject) => o.metadata?.labels?.even === 'true';
        const p1 = await store.list('/p/', { limit: 2, predicate });
        assert.deepEqual(names(p1.items), ['k0', 'k2']);
        assert.ok(p1.continue);
        assert.equal(p1.remainingItemCount, undefined);
        const p2 = await store.list('/p/', { limit: 10, predicate, continue: p1.continue });
        assert.deepEqual(names(p2.items), ['k4', 'k6', 'k8']);
        assert.equal(p2.continue, undefined);
        const all = await store.list('/p/', { predicate });
        assert.equal(all.items.length, 5);
      });

      it('lists at an exact older revision show the collection as it was', async () => {
        await fresh();
        await store.create('/p/a', obj('a', { v: '1' }));
        const b = await store.create('/p/b', obj('b'));
        const at = rv(b);
        await store.delete('/p/b');
        await store.create('/p/c', obj('c'));
        await store.guaranteedUpdate('/p/a', ({ current }) => ({ ...current!, data: { v: '2' } }));
        const old = await store.list('/p/', { at: { kind: 'exact', revision: at } });
        assert.equal(old.revision, at);
        assert.deepEqual(names(old.items), ['a', 'b']);
        assert.deepEqual(old.items[0].data, { v: '1' });
      });

      it('an exact list can be paged and keeps its revision', async () => {
        await fresh();
        for (let i = 0; i < 5; i++) await store.create(`/p/k${i}`, obj(`k${i}`));
        const at = await store.currentRevision();
        await store.create('/p/k2a', obj('k2a'));
        const p1 = await store.list('/p/', { at: { kind: 'exact', revision: at }, limit: 3 });
        const p2 = await store.list('/p/', { limit: 3, continue: p1.continue });
        assert.deepEqual(names([...p1.items, ...p2.items]), ['k0', 'k1', 'k2', 'k3', 'k4']);
        assert.equal(p2.revision, at);
      });

      it('a list not older than a future revision fails TooLargeResourceVersion', async () => {
        await fresh();
        await store.create('/p/a', obj('a'));
        const cur = await store.currentRevision();
        await rejectsWith(
          store.list('/p/', { at: { kind: 'notOlderThan', revision: cur + 100 } }),
          'TooLargeResourceVersion',
        );
        await rejectsWith(
          store.list('/p/', { at: { kind: 'exact', revision: cur + 100 } }),
          'TooLargeResourceVersion',
        );
        const ok = await store.list('/p/', { at: { kind: 'notOlderThan', revision: cur } });
        assert.ok(ok.revision >= cur);
      });

      it('a malformed continue token fails InvalidContinue', async () => {
        await fresh();
        await rejectsWith(store.list('/p/', { limit: 1, continue: 'not-a-token!!' }), 'InvalidContinue');
        const badRv = Buffer.from(JSON.stringify({ v: 1, rv: -3, start: 'a' })).toString('base64url');
        await rejectsWith(store.list('/p/', { limit: 1, continue: badRv }), 'InvalidContinue');
      });

      it('exactKey lists a single key and not its prefix siblings', async () => {
        await fresh();
        await store.create('/p/a', obj('a'));
        await store.create('/p/ab', obj('ab'));
        const res = await store.list('/p/a', { exactKey: true });
        assert.deepEqual(names(res.items), ['a']);
        const none = await store.list('/p/zz', { exactKey: true });
        assert.deepEqual(none.items, []);
      });

      it('count reports live objects under a prefix', async () => {
        await fresh();
        for (let i = 0; i < 4; i++) await store.create(`/p/k${i}`, obj(`k${i}`));
        await store.create('/other/x', obj('x'));
        await store.delete('/p/k1');
        assert.equal(await store.count('/p/'), 3);
      });
    });

    describe('guaranteedUpdate', () => {
      it('hands the current object and revision to tryUpdate and stores its result', async () => {
        await fresh();
        const a = await store.create('/t/a', obj('a', { n: '1' }));
        let seen: { rev: number; data: unknown } | undefined;
        const updated = await store.guaranteedUpdate('/t/a', ({ current, revision }) => {
          seen = { rev: revision, data: current?.data };
          return { ...current!, data: { n: '2' } };
        });
        assert.deepEqual(seen, { rev: rv(a), data: { n: '1' } });
        assert.ok(rv(updated) > rv(a));
        assert.deepEqual(await store.get('/t/a'), updated);
      });

      it('a missing key fails KeyNotFound unless ignoreNotFound, which creates it', async () => {
        await fresh();
        await rejectsWith(
          store.guaranteedUpdate('/t/a', ({ current }) => current),
          'KeyNotFound',
        );
        const made = await store.guaranteedUpdate(
          '/t/a',
          ({ current, revision }) => {
            assert.equal(current, null);
            assert.equal(revision, 0);
            return obj('a', { made: 'yes' });
          },
          { ignoreNotFound: true },
        );
        assert.deepEqual((await store.get('/t/a')).data, { made: 'yes' });
        assert.equal(rv(made), await store.currentRevision());
      });

      it('returning null or an unchanged object writes nothing', async () => {
        await fresh();
        const a = await store.create('/t/a', obj('a', { n: '1' }));
        const r1 = await store.guaranteedUpdate('/t/a', () => null);
        assert.equal(rv(r1), rv(a));
        const r2 = await store.guaranteedUpdate('/t/a', ({ current }) => current);
        assert.equal(rv(r2), rv(a));
        assert.equal(await store.currentRevision(), rv(a));
      });

      it('an error from tryUpdate aborts and leaves the value', async () => {
        await fresh();
        await store.create('/t/a', obj('a', { n: '1' }));
        await assert.rejects(
          store.guaranteedUpdate('/t/a', () => {
            throw new Error('nope');
          }),
          /nope/,
        );
        assert.deepEqual((await store.get('/t/a')).data, { n: '1' });
      });

      it('a stale uid precondition fails ResourceVersionConflict and writes nothing', async () => {
        await fresh();
        const a = await store.create('/t/a', obj('a'));
        await rejectsWith(
          store.guaranteedUpdate('/t/a', ({ current }) => ({ ...current!, data: { x: 'y' } }), {
            preconditions: { uid: 'other-uid' },
          }),
          'ResourceVersionConflict',
        );
        assert.equal(rv(await store.get('/t/a')), rv(a));
      });

      it('a stale resourceVersion precondition fails ResourceVersionConflict', async () => {
        await fresh();
        const a = await store.create('/t/a', obj('a'));
        await store.guaranteedUpdate('/t/a', ({ current }) => ({ ...current!, data: { x: '1' } }));
        await rejectsWith(
          store.guaranteedUpdate('/t/a', ({ current }) => ({ ...current!, data: { x: '2' } }), {
            preconditions: { resourceVersion: String(rv(a)) },
          }),
          'ResourceVersionConflict',
        );
        assert.deepEqual((await store.get('/t/a')).data, { x: '1' });
      });

      it('50 concurrent increments on one key are all applied', async () => {
        await fresh();
        await store.create('/t/counter', obj('counter', { n: 0 }));
        await Promise.all(
          Array.from({ length: 50 }, () =>
            store.guaranteedUpdate('/t/counter', ({ current }) => {
              const n = (current!.data as { n: number }).n;
              return { ...current!, data: { n: n + 1 } };
            }),
          ),
        );
        assert.deepEqual((await store.get('/t/counter')).data, { n: 50 });
      });

      it('retries tryUpdate with the newer object when another write wins the race', async () => {
        await fresh();
        await store.create('/t/a', obj('a', { n: 'base' }));
        let calls = 0;
        const seen: unknown[] = [];
        const result = await store.guaranteedUpdate('/t/a', async ({ current }) => {
          calls++;
          seen.push(current!.data);
          if (calls === 1) {
            await store.guaranteedUpdate('/t/a', ({ current: c }) => ({ ...c!, data: { n: 'sneaky' } }));
          }
          return { ...current!, data: { n: `${(current!.data as { n: string }).n}+mine` } };
        });
        assert.equal(calls, 2);
        assert.deepEqual(seen, [{ n: 'base' }, { n: 'sneaky' }]);
        assert.deepEqual(result.data, { n: 'sneaky+mine' });
      });

      it('tryUpdate gets a private copy: mutating it does not leak into the store', async () => {
        await fresh();
        await store.create('/t/a', obj('a', { n: '1' }));
        await assert.rejects(
          store.guaranteedUpdate('/t/a', ({ current }) => {
            (current!.data as { n: string }).n = 'mutated';
            throw new Error('abort');
          }),
        );
        assert.deepEqual((await store.get('/t/a')).data, { n: '1' });
      });
    });

    describe('delete', () => {
      it('returns the last state with the deletion revision and removes the key', async () => {
        await fresh();
        const a = await store.create('/t/a', obj('a', { last: 'state' }));
        const gone = await store.delete('/t/a');
        assert.deepEqual(gone.data, { last: 'state' });
        assert.ok(rv(gone) > rv(a));
        assert.equal(rv(gone), await store.currentRevision());
        await rejectsWith(store.get('/t/a'), 'KeyNotFound');
      });

      it('a missing key fails KeyNotFound', async () => {
        await fresh();
        await rejectsWith(store.delete('/t/none'), 'KeyNotFound');
      });

      it('a stale uid precondition fails and the object stays', async () => {
        await fresh();
        await store.create('/t/a', obj('a'));
        await rejectsWith(
          store.delete('/t/a', { preconditions: { uid: 'stale' } }),
          'ResourceVersionConflict',
        );
        assert.equal((await store.get('/t/a')).metadata?.name, 'a');
      });

      it('a stale resourceVersion precondition fails and the object stays', async () => {
        await fresh();
        const a = await store.create('/t/a', obj('a'));
        await store.guaranteedUpdate('/t/a', ({ current }) => ({ ...current!, data: { x: '1' } }));
        await rejectsWith(
          store.delete('/t/a', { preconditions: { resourceVersion: String(rv(a)) } }),
          'ResourceVersionConflict',
        );
        assert.deepEqual((await store.get('/t/a')).data, { x: '1' });
      });

      it('matching preconditions delete', async () => {
        await fresh();
        const a = await store.create('/t/a', obj('a'));
        await store.delete('/t/a', { preconditions: { uid: 'uid-a', resourceVersion: String(rv(a)) } });
        await rejectsWith(store.get('/t/a'), 'KeyNotFound');
      });

      it('validateDeletion sees the current object and can veto', async () => {
        await fresh();
        await store.create('/t/a', obj('a', { keep: 'me' }));
        await assert.rejects(
          store.delete('/t/a', {
            validateDeletion: (cur) => {
              assert.deepEqual(cur.data, { keep: 'me' });
              throw new Error('vetoed');
            },
          }),
          /vetoed/,
        );
        assert.deepEqual((await store.get('/t/a')).data, { keep: 'me' });
      });

      it('concurrent deletes of one key: exactly one succeeds', async () => {
        await fresh();
        await store.create('/t/a', obj('a'));
        const results = await Promise.allSettled(Array.from({ length: 5 }, () => store.delete('/t/a')));
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
        for (const r of results) {
          if (r.status === 'rejected') assert.ok(isStorageError(r.reason, 'KeyNotFound'));
        }
      });
    });

    describe('watch', () => {
      it('delivers ADDED, MODIFIED and DELETED in commit order with their revisions', async () => {
        await fresh();
        const start = await store.currentRevision();
        const w = watch('/w/', { revision: start });
        const a = await store.create('/w/a', obj('a', { v: '1' }));
        const a2 = await store.guaranteedUpdate('/w/a', ({ current }) => ({ ...current!, data: { v: '2' } }));
        const gone = await store.delete('/w/a');
        const evs = await w.take(3);
        assert.deepEqual(
          evs.map((e) => [e.type, e.revision, rv(e.object)]),
          [
            ['ADDED', rv(a), rv(a)],
            ['MODIFIED', rv(a2), rv(a2)],
            ['DELETED', rv(gone), rv(gone)],
          ],
        );
        assert.deepEqual(evs[2].object.data, { v: '2' });
      });

      it('replays exactly the committed events after an old revision, then continues live', async () => {
        await fresh();
        const start = await store.currentRevision();
        await store.create('/w/a', obj('a', { v: '1' }));
        await store.create('/w/b', obj('b', { v: '1' }));
        await store.guaranteedUpdate('/w/a', ({ current }) => ({ ...current!, data: { v: '2' } }));
        await store.delete('/w/b');
        await store.create('/other/x', obj('x'));
        const w = watch('/w/', { revision: start });
        const replayed = await w.take(4);
        assert.deepEqual(summary(replayed), [
          'ADDED a {"v":"1"}',
          'ADDED b {"v":"1"}',
          'MODIFIED a {"v":"2"}',
          'DELETED b {"v":"1"}',
        ]);
        const revs = replayed.map((e) => e.revision);
        assert.deepEqual(
          revs,
          [...revs].sort((x, y) => x - y),
        );
        await store.create('/w/c', obj('c'));
        assert.deepEqual(summary(await w.take(1)), ['ADDED c {}']);
        await w.expectQuiet(200);
      });

      it('a watch from the middle of history starts strictly after that revision', async () => {
        await fresh();
        await store.create('/w/a', obj('a'));
        const b = await store.create('/w/b', obj('b'));
        await store.create('/w/c', obj('c'));
        const w = watch('/w/', { revision: rv(b) });
        assert.deepEqual(summary(await w.take(1)), ['ADDED c {}']);
        await w.expectQuiet(200);
      });

      it('filters by key prefix and ignores sibling prefixes', async () => {
        await fresh();
        const start = await store.currentRevision();
        const w = watch('/w/ns1/', { revision: start });
        await store.create('/w/ns10/x', obj('x'));
        await store.create('/w/ns2/y', obj('y'));
        await store.create('/w/ns1/z', obj('z'));
        assert.deepEqual(summary(await w.take(1)), ['ADDED z {}']);
        await w.expectQuiet(200);
      });

      it('with a predicate, objects entering the filter are ADDED and leaving it are DELETED', async () => {
        await fresh();
        const start = await store.currentRevision();
        const predicate = (o: ApiObject) => (o.data as { color?: string } | undefined)?.color === 'red';
        const w = watch('/w/', { revision: start, predicate });
        await store.create('/w/a', obj('a', { color: 'blue' }));
        await store.guaranteedUpdate('/w/a', ({ current }) => ({ ...current!, data: { color: 'red' } }));
        await store.guaranteedUpdate('/w/a', ({ current }) => ({
          ...current!,
          data: { color: 'red', x: 1 },
        }));
        await store.guaranteedUpdate('/w/a', ({ current }) => ({ ...current!, data: { color: 'green' } }));
        await store.delete('/w/a');
        assert.deepEqual(summary(await w.take(3)), [
          'ADDED a {"color":"red"}',
          'MODIFIED a {"color":"red","x":1}',
          'DELETED a {"color":"green"}',
        ]);
        await w.expectQuiet(200);
      });

      it('the predicate applies to replayed history too', async () => {
        await fresh();
        const start = await store.currentRevision();
        await store.create('/w/a', obj('a', { color: 'red' }));
        await store.guaranteedUpdate('/w/a', ({ current }) => ({ ...current!, data: { color: 'blue' } }));
        await store.create('/w/b', obj('b', { color: 'blue' }));
        const predicate = (o: ApiObject) => (o.data as { color?: string } | undefined)?.color === 'red';
        const w = watch('/w/', { revision: start, predicate });
        assert.deepEqual(summary(await w.take(2)), ['ADDED a {"color":"red"}', 'DELETED a {"color":"blue"}']);
        await w.expectQuiet(200);
      });

      it('without a revision, sends the current state as ADDED events first, then changes', async () => {
        await fresh();
        await store.create('/w/a', obj('a'));
        await store.create('/w/b', obj('b'));
        await store.delete('/w/b');
        await store.create('/w/c', obj('c'));
        const w = watch('/w/');
        const initial = await w.take(2);
        assert.deepEqual(summary(initial).sort(), ['ADDED a {}', 'ADDED c {}']);
        await store.create('/w/d', obj('d'));
        assert.deepEqual(summary(await w.take(1)), ['ADDED d {}']);
      });

      it('a watch from a compacted revision ends with a Compacted error', async () => {
        await fresh();
        const a = await store.create('/w/a', obj('a'));
        await store.guaranteedUpdate('/w/a', ({ current }) => ({ ...current!, data: { v: '2' } }));
        const cur = await store.currentRevision();
        await store.compact(cur);
        const w = watch('/w/', { revision: rv(a) - 1 });
        const ev = await w.next();
        assert.equal(ev?.type, 'ERROR');
        assert.ok(isStorageError(ev?.error, 'Compacted'), String(ev?.error));
        assert.equal(await w.next(500), null);
      });

      it('progress notifications arrive as BOOKMARKs carrying a current revision', async () => {
        await fresh();
        const a = await store.create('/w/a', obj('a'));
        const w = watch('/w/', { revision: rv(a), progressNotify: true });
        await store.create('/elsewhere/b', obj('b'));
        const deadline = Date.now() + backend.progressNotifyWithinMs + 5000;
        let bookmark: WatchEvent | null = null;
        while (Date.now() < deadline && bookmark === null) {
          const ev = await w.next(deadline - Date.now());
          if (ev?.type === 'BOOKMARK') bookmark = ev;
          else if (ev !== null) assert.fail(`unexpected event ${ev.type}`);
        }
        assert.ok(bookmark, 'no bookmark arrived');
        assert.ok(bookmark.revision >= rv(a));
        assert.equal(bookmark.object.metadata?.resourceVersion, String(bookmark.revision));
      });

      it('stop ends the iteration', async () => {
        await fresh();
        const w = watch('/w/', { revision: await store.currentRevision() });
        w.stop();
        assert.equal(await w.next(1000), null);
        await store.create('/w/a', obj('a'));
      });

      it('many watchers each see every event', async () => {
        await fresh();
        const start = await store.currentRevision();
        const ws = Array.from({ length: 10 }, () => watch('/w/', { revision: start }));
        for (let i = 0; i < 20; i++) await store.create(`/w/k${i}`, obj(`k${i}`));
        for (const w of ws) {
          const evs = await w.take(20);
          assert.deepEqual(
            evs.map((e) => e.object.metadata?.name),
            Array.from({ length: 20 }, (_, i) => `k${i}`),
          );
        }
      });

      it('events of concurrent writers arrive once each and in revision order', async () => {
        await fresh();
        const start = await store.currentRevision();
        const w = watch('/w/', { revision: start });
        await Promise.all(Array.from({ length: 40 }, (_, i) => store.create(`/w/c${i}`, obj(`c${i}`))));
        const evs = await w.take(40);
        const revs = evs.map((e) => e.revision);
        assert.deepEqual(
          revs,
          [...revs].sort((x, y) => x - y),
        );
        assert.equal(new Set(evs.map((e) => e.object.metadata?.name)).size, 40);
        await w.expectQuiet(200);
      });
    });

    describe('compaction', () => {
      it('keeps the latest state of every key and serves it', async () => {
        await fresh();
        await store.create('/c/a', obj('a', { v: '1' }));
        await store.guaranteedUpdate('/c/a', ({ current }) => ({ ...current!, data: { v: '2' } }));
        await store.create('/c/b', obj('b'));
        await store.create('/c/gone', obj('gone'));
        await store.delete('/c/gone');
        const cur = await store.currentRevision();
        await store.compact(cur);
        assert.deepEqual((await store.get('/c/a')).data, { v: '2' });
        assert.deepEqual(names((await store.list('/c/')).items), ['a', 'b']);
        await rejectsWith(store.get('/c/gone'), 'KeyNotFound');
        assert.equal(await store.currentRevision(), cur);
        const next = await store.guaranteedUpdate('/c/b', ({ current }) => ({
          ...current!,
          data: { v: 'x' },
        }));
        assert.ok(rv(next) > cur);
      });

      it('reads below the compacted revision fail Compacted (410)', async () => {
        await fresh();
        const a = await store.create('/c/a', obj('a', { v: '1' }));
        await store.guaranteedUpdate('/c/a', ({ current }) => ({ ...current!, data: { v: '2' } }));
        const cur = await store.currentRevision();
        await store.compact(cur);
        await rejectsWith(store.get('/c/a', { at: { kind: 'exact', revision: rv(a) } }), 'Compacted');
        await rejectsWith(store.list('/c/', { at: { kind: 'exact', revision: rv(a) } }), 'Compacted');
        const atCompact = await store.list('/c/', { at: { kind: 'exact', revision: cur } });
        assert.equal(atCompact.items.length, 1);
      });

      it('a continue token whose revision was compacted fails Compacted', async () => {
        await fresh();
        for (let i = 0; i < 4; i++) await store.create(`/c/k${i}`, obj(`k${i}`));
        const p1 = await store.list('/c/', { limit: 2 });
        await store.guaranteedUpdate('/c/k3', ({ current }) => ({ ...current!, data: { v: 'x' } }));
        await store.compact(await store.currentRevision());
        const err = await rejectsWith(store.list('/c/', { limit: 2, continue: p1.continue }), 'Compacted');
        assert.equal((err as { fromContinue?: boolean }).fromContinue, true);
      });

      it('compacting twice, or below an earlier compaction, is harmless', async () => {
        await fresh();
        await store.create('/c/a', obj('a'));
        const r1 = await store.currentRevision();
        await store.guaranteedUpdate('/c/a', ({ current }) => ({ ...current!, data: { v: '2' } }));
        const r2 = await store.currentRevision();
        await store.compact(r2);
        await store.compact(r2);
        await store.compact(r1);
        assert.deepEqual((await store.get('/c/a')).data, { v: '2' });
      });
    });
  });
}
