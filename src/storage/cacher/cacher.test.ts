import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
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

describe('watch cache specifics', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiserver-test-cacher-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hands every reader the same frozen object, so nothing can change the cache', async () => {
    const store = open();
    await store.create('/x/a', { metadata: { name: 'a' }, data: { k: 'v' } });
    const one = (await store.list('/x/')).items[0];
    const two = (await store.list('/x/', { at: { kind: 'notOlderThan', revision: 0 } })).items[0];
    assert.equal(one, two);
    assert.throws(() => {
      (one.data as Record<string, string>).k = 'changed';
    }, TypeError);
    await store.close();
  });

  it('objects with identical managedFields share one frozen copy', async () => {
    const store = open();
    const managedFields = [
      {
        manager: 'm',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': {} },
      },
    ];
    await store.create('/s/a', { metadata: { name: 'a', managedFields }, data: { k: '1' } });
    await store.create('/s/b', { metadata: { name: 'b', managedFields }, data: { k: '2' } });
    await store.create('/s/c', {
      metadata: { name: 'c', managedFields: [{ ...managedFields[0], manager: 'n' }] },
    });
    const [a, b, c] = (await store.list('/s/')).items;
    assert.equal(a.metadata?.managedFields, b.metadata?.managedFields);
    assert.notEqual(a.metadata?.managedFields, c.metadata?.managedFields);
    assert.deepEqual(b.metadata?.managedFields, managedFields);
    assert.ok(Object.isFrozen(a.metadata?.managedFields));
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
    const cached = (await store.list('/p/')).items;
    const first = await store.list('/p/', { limit: 1 });
    assert.equal(first.items[0], cached[0], 'the first page comes from the cache');
    assert.equal(first.remainingItemCount, 2);
    await store.delete('/p/b');
    const second = await store.list('/p/', { limit: 1, continue: first.continue });
    assert.equal(second.items[0], cached[1], 'later pages come from the same snapshot');
    assert.equal(second.revision, first.revision);
    await new Promise((r) => setTimeout(r, 350));
    const third = await store.list('/p/', { limit: 1, continue: second.continue });
    assert.equal(third.items[0].metadata?.name, 'c');
    assert.notEqual(third.items[0], cached[2], 'an expired snapshot hands over to the backend');
    assert.equal(third.revision, first.revision);
    assert.equal(third.continue, undefined);
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
