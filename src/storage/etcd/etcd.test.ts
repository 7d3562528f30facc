import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { storageWorkAwaited } from '../awaited.ts';
import { CachedStorage } from '../cacher/index.ts';
import { KeyExistsError, ResourceVersionConflictError } from '../errors.ts';
import { runStorageConformance } from '../testing/conformance.ts';
import { type EtcdServer, startEtcd } from '../testing/etcd-server.ts';
import { EtcdClient } from './client.ts';
import { openEtcdStorage } from './index.ts';

let server: EtcdServer;
let n = 0;
const prefixes = new Map<unknown, string>();

runStorageConformance('etcd', {
  async setup() {
    server = await startEtcd({ progressNotifyIntervalMs: 300 });
  },
  async teardown() {
    await server.stop();
  },
  // A fresh prefix per store: every test sees an empty keyspace on the shared server.
  open: async () => {
    const prefix = `/conformance-${n++}`;
    const store = await openEtcdStorage({ endpoints: [server.endpoint], prefix });
    prefixes.set(store, prefix);
    return store;
  },
  progressNotifyWithinMs: 1000,
  async corrupt(store, key) {
    const client = new EtcdClient([server.endpoint]);
    await client.put({
      key: Buffer.from(`${prefixes.get(store)}${key}`),
      value: Buffer.from([0xff, 0x00, 0x7b]),
    });
    client.close();
  },
});

// The same promises with etcd's connections on the main thread (the I/O thread is the default).
let mainThread: EtcdServer;
runStorageConformance('etcd on the main thread', {
  async setup() {
    mainThread = await startEtcd({ progressNotifyIntervalMs: 300 });
  },
  async teardown() {
    await mainThread.stop();
  },
  open: async () => {
    const prefix = `/main-thread-${n++}`;
    const store = await openEtcdStorage({ endpoints: [mainThread.endpoint], prefix, ioThread: false });
    prefixes.set(store, prefix);
    return store;
  },
  progressNotifyWithinMs: 1000,
  async corrupt(store, key) {
    const client = new EtcdClient([mainThread.endpoint]);
    await client.put({
      key: Buffer.from(`${prefixes.get(store)}${key}`),
      value: Buffer.from([0xff, 0x00, 0x7b]),
    });
    client.close();
  },
});

// The watch cache hands etcd its copy of an object to update from: every conformance promise about
// updates must hold when that copy is stale.
let cachedServer: EtcdServer;
runStorageConformance('watch cache over etcd', {
  async setup() {
    cachedServer = await startEtcd({ progressNotifyIntervalMs: 300 });
  },
  async teardown() {
    await cachedServer.stop();
  },
  open: async () =>
    new CachedStorage(
      await openEtcdStorage({ endpoints: [cachedServer.endpoint], prefix: `/cached-${n++}` }),
      { progressNotifyIntervalMs: 300 },
    ),
  progressNotifyWithinMs: 1000,
});

describe('etcd backend specifics', () => {
  let etcd: EtcdServer;
  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => {
    await etcd.stop();
  });

  it('stores keys under the configured prefix, with the JSON value and no resourceVersion', async () => {
    const store = await openEtcdStorage({ endpoints: [etcd.endpoint], prefix: '/registry' });
    const raw = new EtcdClient([etcd.endpoint]);
    try {
      await store.create('/configmaps/ns/a', { metadata: { name: 'a' }, data: { k: 'v' } });
      const value = (
        await raw.range({ key: Buffer.from('/registry/configmaps/ns/a') })
      ).kvs[0]?.value.toString();
      assert.deepEqual(JSON.parse(value ?? 'null'), { metadata: { name: 'a' }, data: { k: 'v' } });
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('counts a request to etcd as awaited storage work until its answer is in', async () => {
    const store = await openEtcdStorage({ endpoints: [etcd.endpoint], prefix: '/awaited' });
    try {
      assert.equal(storageWorkAwaited(), false);
      const created = store.create('/k/a', { metadata: { name: 'a' } });
      assert.equal(storageWorkAwaited(), true);
      await created;
      assert.equal(storageWorkAwaited(), false);
      // An error answer ends it too.
      await assert.rejects(store.create('/k/a', { metadata: { name: 'a' } }), KeyExistsError);
      assert.equal(storageWorkAwaited(), false);
    } finally {
      await store.close();
    }
  });

  it('lists more than the default gRPC message limit in one call', async () => {
    const store = await openEtcdStorage({ endpoints: [etcd.endpoint], prefix: '/big' });
    try {
      const pad = 'x'.repeat(1024);
      // Creates go out 100 at a time, as a server's in-flight limit would let them: 6000 at once
      // can put etcd's commit more than 5000 entries ahead of its apply, and it then refuses
      // writes with "too many requests", which is not what this test is about.
      let next = 0;
      const lane = async () => {
        for (let i = next++; i < 6000; i = next++)
          await store.create(`/k/${String(i).padStart(5, '0')}`, {
            metadata: { name: `k${i}` },
            data: { pad },
          });
      };
      await Promise.all(Array.from({ length: 100 }, lane));
      const all = await store.list('/k/');
      assert.equal(all.items.length, 6000);
    } finally {
      await store.close();
    }
  });

  describe('updates from a cached copy', () => {
    const rv = (o: ApiObject) => Number(o.metadata?.resourceVersion);

    it('a stale copy is re-read and the update applied to the current object', async () => {
      const store = await openEtcdStorage({ endpoints: [etcd.endpoint], prefix: '/stale' });
      try {
        const first = await store.create('/cm/a', { metadata: { name: 'a' }, data: { n: '1' } });
        const second = await store.guaranteedUpdate('/cm/a', ({ current }) => ({
          ...current!,
          data: { n: '2' },
        }));
        const seen: number[] = [];
        const done = await store.guaranteedUpdate(
          '/cm/a',
          ({ current, revision }) => {
            seen.push(revision);
            return { ...current!, data: { ...(current!.data as Record<string, string>), extra: 'x' } };
          },
          { cachedState: () => ({ object: first, revision: rv(first) }) },
        );
        assert.deepEqual(seen, [rv(first), rv(second)], 'tried from the copy, then from the current value');
        assert.deepEqual(done.data, { n: '2', extra: 'x' });
        assert.deepEqual((await store.get('/cm/a')).data, { n: '2', extra: 'x' });
      } finally {
        await store.close();
      }
    });

    it('a current copy needs no read, and a no-op writes nothing', async () => {
      const store = await openEtcdStorage({ endpoints: [etcd.endpoint], prefix: '/current' });
      try {
        const first = await store.create('/cm/a', { metadata: { name: 'a' }, data: { n: '1' } });
        const seen: number[] = [];
        const updated = await store.guaranteedUpdate(
          '/cm/a',
          ({ current, revision }) => {
            seen.push(revision);
            return { ...current!, data: { n: '2' } };
          },
          { cachedState: () => ({ object: first, revision: rv(first) }) },
        );
        assert.deepEqual(seen, [rv(first)]);
        const same = await store.guaranteedUpdate('/cm/a', ({ current }) => current, {
          cachedState: () => ({ object: updated, revision: rv(updated) }),
        });
        assert.equal(rv(same), rv(updated), 'an unchanged object is not written');
        assert.equal(await store.currentRevision(), rv(updated));
      } finally {
        await store.close();
      }
    });

    it('preconditions, errors and no-ops judged on a stale copy are judged again on the current one', async () => {
      const store = await openEtcdStorage({ endpoints: [etcd.endpoint], prefix: '/judged' });
      try {
        const first = await store.create('/cm/a', { metadata: { name: 'a', uid: 'u1' }, data: { n: '1' } });
        const second = await store.guaranteedUpdate('/cm/a', ({ current }) => ({
          ...current!,
          data: { n: '2' },
        }));
        const stale = { cachedState: () => ({ object: first, revision: rv(first) }) };
        // A resourceVersion precondition only the current value meets.
        const pinned = await store.guaranteedUpdate(
          '/cm/a',
          ({ current }) => ({ ...current!, data: { n: '3' } }),
          {
            ...stale,
            preconditions: { resourceVersion: String(rv(second)) },
          },
        );
        assert.deepEqual(pinned.data, { n: '3' });
        // tryUpdate rejecting the stale copy only.
        const checked = await store.guaranteedUpdate(
          '/cm/a',
          ({ current }) => {
            if ((current?.data as Record<string, string> | undefined)?.n !== '3') throw new Error('stale');
            return { ...current, data: { n: '4' } };
          },
          stale,
        );
        assert.deepEqual(checked.data, { n: '4' });
        // "Nothing to change" on the stale copy answers the current object.
        const unchanged = await store.guaranteedUpdate('/cm/a', () => null, stale);
        assert.equal(rv(unchanged), rv(checked));
        // An error the current value earns too still reaches the caller.
        await assert.rejects(
          store.guaranteedUpdate('/cm/a', ({ current }) => current, {
            ...stale,
            preconditions: { uid: 'other' },
          }),
          ResourceVersionConflictError,
        );
      } finally {
        await store.close();
      }
    });
  });

  it('opening against an unreachable endpoint fails', async () => {
    await assert.rejects(openEtcdStorage({ endpoints: ['http://127.0.0.1:1'] }));
  });
});
