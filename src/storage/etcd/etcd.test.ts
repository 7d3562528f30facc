import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import etcd3 from 'etcd3';
import { runStorageConformance } from '../testing/conformance.ts';
import { type EtcdServer, startEtcd } from '../testing/etcd-server.ts';
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
    const client = new etcd3.Etcd3({ hosts: [server.endpoint] });
    await client.put(`${prefixes.get(store)}${key}`).value(Buffer.from([0xff, 0x00, 0x7b]));
    client.close();
  },
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
    const raw = new etcd3.Etcd3({ hosts: etcd.endpoint });
    try {
      await store.create('/configmaps/ns/a', { metadata: { name: 'a' }, data: { k: 'v' } });
      const value = await raw.get('/registry/configmaps/ns/a').string();
      assert.deepEqual(JSON.parse(value ?? 'null'), { metadata: { name: 'a' }, data: { k: 'v' } });
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('lists more than the default gRPC message limit in one call', async () => {
    const store = await openEtcdStorage({ endpoints: [etcd.endpoint], prefix: '/big' });
    try {
      const pad = 'x'.repeat(1024);
      const writes = [];
      for (let i = 0; i < 6000; i++)
        writes.push(
          store.create(`/k/${String(i).padStart(5, '0')}`, { metadata: { name: `k${i}` }, data: { pad } }),
        );
      await Promise.all(writes);
      const all = await store.list('/k/');
      assert.equal(all.items.length, 6000);
    } finally {
      await store.close();
    }
  });

  it('opening against an unreachable endpoint fails', async () => {
    await assert.rejects(openEtcdStorage({ endpoints: ['http://127.0.0.1:1'] }));
  });
});
