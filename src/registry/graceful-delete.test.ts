// Graceful deletion in the generic store (Strategy.gracefulDeletion), as upstream's BeforeDelete:
// the first delete marks, later ones may only shorten, zero removes, finalizers still hold, and
// kinds without the hook are untouched.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ApiObject } from '../machinery/object.ts';
import { openSqliteStorage, type SqliteStorage } from '../storage/sqlite/index.ts';
import { GenericStore } from './generic-store.ts';
import { STANDARD_VERBS } from './resource.ts';
import { rejectionStatus, testStrategy } from './testing/store-fixtures.ts';

const resource = {
  group: 'example.test',
  version: 'v1',
  resource: 'runners',
  singular: 'runner',
  kind: 'Runner',
  listKind: 'RunnerList',
  namespaced: true,
  verbs: STANDARD_VERBS,
  subresources: {},
};

/** Waits spec.grace seconds unless asked otherwise; spec.done objects go at once. */
const strategy = testStrategy({
  tracksGeneration: true,
  returnDeletedObject: true,
  gracefulDeletion: (obj, requested) => {
    const spec = obj.spec as { grace?: number; done?: boolean };
    if (spec.done) return 0;
    return requested ?? spec.grace ?? 0;
  },
});

const runner = (
  name: string,
  spec: Record<string, unknown> = { grace: 30 },
  meta: Record<string, unknown> = {},
) => ({ metadata: { name, ...meta }, spec }) as ApiObject;

const secondsUntil = (ts: string | undefined) => (Date.parse(String(ts)) - Date.now()) / 1000;

describe('generic store: graceful deletion', () => {
  let storage: SqliteStorage;
  let store: GenericStore;
  beforeEach(() => {
    storage = openSqliteStorage({ path: ':memory:' });
    store = new GenericStore(storage, resource, strategy);
  });
  afterEach(() => storage.close());

  it('a first delete marks the object and keeps it; its generation moves on', async () => {
    await store.create('ns', runner('a'));
    const out = await store.delete('ns', 'a');
    assert.equal(out.metadata?.deletionGracePeriodSeconds, 30);
    const left = secondsUntil(out.metadata?.deletionTimestamp);
    assert.ok(left > 20 && left <= 31, `deletion about 30 s away, was ${left}`);
    assert.equal(out.metadata?.generation, 2);
    const stored = await store.get('ns', 'a');
    assert.equal(stored.metadata?.deletionGracePeriodSeconds, 30);
  });

  it('later deletes only shorten the period; zero removes the object', async () => {
    await store.create('ns', runner('a'));
    await store.delete('ns', 'a');
    const longer = await store.delete('ns', 'a', { gracePeriodSeconds: 100 });
    assert.equal(longer.metadata?.deletionGracePeriodSeconds, 30);
    const same = await store.delete('ns', 'a');
    assert.equal(same.metadata?.deletionGracePeriodSeconds, 30);
    const shorter = await store.delete('ns', 'a', { gracePeriodSeconds: 5 });
    assert.equal(shorter.metadata?.deletionGracePeriodSeconds, 5);
    assert.ok(secondsUntil(shorter.metadata?.deletionTimestamp) <= 6);
    assert.equal(shorter.metadata?.generation, 2, 'shortening is not a first deletion');
    const gone = await store.delete('ns', 'a', { gracePeriodSeconds: 0 });
    assert.equal(gone.metadata?.name, 'a');
    assert.equal((await rejectionStatus(store.get('ns', 'a'))).code, 404);
  });

  it('a negative period counts as one second', async () => {
    await store.create('ns', runner('a'));
    const out = await store.delete('ns', 'a', { gracePeriodSeconds: -5 });
    assert.equal(out.metadata?.deletionGracePeriodSeconds, 1);
  });

  it('a period of zero from the strategy removes the object at once', async () => {
    await store.create('ns', runner('done', { done: true }));
    await store.delete('ns', 'done');
    assert.equal((await rejectionStatus(store.get('ns', 'done'))).code, 404);
  });

  it('finalizers hold a zero-period delete; their removal then completes it', async () => {
    await store.create('ns', runner('held', { done: true }, { finalizers: ['example.test/hold'] }));
    const marked = await store.delete('ns', 'held');
    assert.equal(marked.metadata?.deletionGracePeriodSeconds, 0);
    assert.ok(marked.metadata?.deletionTimestamp);
    await store.patch('ns', 'held', (o) => {
      delete o.metadata?.finalizers;
      return o;
    });
    assert.equal((await rejectionStatus(store.get('ns', 'held'))).code, 404);
  });

  it('an object inside its grace period survives updates that drop its last finalizer', async () => {
    await store.create('ns', runner('slow', { grace: 30 }, { finalizers: ['example.test/hold'] }));
    await store.delete('ns', 'slow');
    const after = await store.patch('ns', 'slow', (o) => {
      delete o.metadata?.finalizers;
      return o;
    });
    assert.equal(after.metadata?.deletionGracePeriodSeconds, 30);
    assert.equal((await store.get('ns', 'slow')).metadata?.name, 'slow');
    await store.delete('ns', 'slow', { gracePeriodSeconds: 0 });
    assert.equal((await rejectionStatus(store.get('ns', 'slow'))).code, 404);
  });

  it('dry run marks nothing', async () => {
    await store.create('ns', runner('a'));
    const out = await store.delete('ns', 'a', { dryRun: true });
    assert.equal(out.metadata?.deletionGracePeriodSeconds, 30);
    assert.equal((await store.get('ns', 'a')).metadata?.deletionTimestamp, undefined);
  });

  it('kinds without the hook ignore gracePeriodSeconds', async () => {
    const plain = new GenericStore(storage, { ...resource, resource: 'plains' }, testStrategy());
    await plain.create('ns', runner('p'));
    const out = await plain.delete('ns', 'p', { gracePeriodSeconds: 30 });
    assert.equal(out.kind, 'Status');
    assert.equal((await rejectionStatus(plain.get('ns', 'p'))).code, 404);
  });
});
