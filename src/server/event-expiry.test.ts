// Event expiry: the sweeper deletes an Event --event-ttl after its last write (a write restarts
// the clock, an Event first seen after a start is aged by its own timestamps), and a server
// started with a short TTL removes its Events by itself.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventKind } from '../apis/core/event.ts';
import { parseApiserverFlags } from '../cmd/apiserver-flags.ts';
import { namingProfile } from '../naming/profile.ts';
import { GenericStore } from '../registry/generic-store.ts';
import type { Storage } from '../storage/interface.ts';
import { openSqliteStorage } from '../storage/sqlite/index.ts';
import { lastRecordedWrite, startEventExpiry } from './event-expiry.ts';
import { startTestApiServer } from './testing/index.ts';
import { waitUntil } from './testing/wait-for.ts';

const kind = eventKind(namingProfile('spec'));
const event = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
  reason: 'R',
  ...extra,
});

describe('event expiry sweeper', () => {
  let storage: Storage;
  let store: GenericStore;
  before(() => {
    storage = openSqliteStorage({ path: ':memory:' });
    store = new GenericStore(storage, kind.resource, kind.strategy);
  });
  after(() => storage?.close());

  it('deletes Events a TTL after their last write; a write restarts the clock', async () => {
    const t0 = Date.now();
    let now = t0 + 10_000;
    const expiry = startEventExpiry({ store, ttlMs: 60_000, intervalMs: 3_600_000, now: () => now });
    try {
      await store.create('default', event('a'));
      await store.create('default', event('b'));
      assert.equal(await expiry.sweep(), 0);
      const a = await store.get('default', 'a');
      await store.update('default', 'a', { ...a, metadata: { ...a.metadata, labels: { touched: 'yes' } } });
      now = t0 + 30_000;
      assert.equal(await expiry.sweep(), 0);
      now = t0 + 75_000;
      // b was written at t0 and is gone; a was written again at t0 + 30 s (as the sweeper saw it).
      assert.equal(await expiry.sweep(), 1);
      assert.deepEqual(
        (await store.list('')).items.map((e) => e.metadata?.name),
        ['a'],
      );
      now = t0 + 95_000;
      assert.equal(await expiry.sweep(), 1);
      assert.deepEqual((await store.list('')).items, []);
    } finally {
      await expiry.stop();
    }
  });

  it('an Event first seen after a start is aged by its own latest timestamp', () => {
    const e = event('c', {
      metadata: { name: 'c', creationTimestamp: '2026-01-01T00:00:00Z' },
      lastTimestamp: '2026-01-01T00:10:00Z',
      series: { count: 2, lastObservedTime: '2026-01-01T00:20:00.000000Z' },
    });
    assert.equal(lastRecordedWrite(e), Date.parse('2026-01-01T00:20:00Z'));
  });
});

describe('--event-ttl', () => {
  it('is a duration, one hour by default', () => {
    assert.equal(parseApiserverFlags(['--data-dir', '/tmp/x'], 'apiserver').eventTtlMs, 3_600_000);
    assert.equal(
      parseApiserverFlags(['--data-dir', '/tmp/x', '--event-ttl', '2m'], 'apiserver').eventTtlMs,
      120_000,
    );
  });

  it('a server with a short TTL removes its Events by itself', async () => {
    const t = await startTestApiServer({ eventTtlMs: 1000 });
    try {
      const path = '/api/v1/namespaces/default/events';
      const created = await t.call({ method: 'POST', path, body: JSON.stringify(event('short')) });
      assert.equal(created.status, 201, created.body);
      await waitUntil(
        async () => (await t.call({ path: `${path}/short` })).status === 404,
        'the Event expired',
      );
    } finally {
      await t.stop();
    }
  });
});
