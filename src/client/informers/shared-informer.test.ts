// The shared informer's promises to handlers: initial adds (also for handlers added late), updates
// and deletes in order, per-handler resync between the period asked and the informer's check
// period (never below one second, none when the informer does not resync), relisted unchanged
// objects not reported, cached objects never mutated, handler failures contained, and stop.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import type { EventHandler } from '../api.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { FakeCluster } from '../testing/fake-cluster.ts';
import { SharedIndexInformer } from './shared-informer.ts';

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const cm = (name: string, data: Record<string, string> = {}): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

function recorder(): { seen: string[]; handler: EventHandler } {
  const seen: string[] = [];
  return {
    seen,
    handler: {
      add: (o, initial) => seen.push(`add ${o.metadata?.name}${initial ? ' initial' : ''}`),
      update: (o, n) => seen.push(`${o === n ? 'resync' : 'update'} ${n.metadata?.name}`),
      delete: (o) => seen.push(`delete ${o.metadata?.name}`),
    },
  };
}

function setup(resyncPeriodMs = 0) {
  const clock = new FakeClock();
  const cluster = new FakeCluster({ clock });
  const errors: unknown[] = [];
  const informer = new SharedIndexInformer(cluster.resource(CM), {
    clock,
    resyncPeriodMs,
    onError: (e) => errors.push(e),
    reflector: { random: () => 0 },
  });
  return { clock, cluster, client: cluster.resource(CM, 'ns'), informer, errors };
}

describe('SharedIndexInformer', () => {
  it('tells handlers of the initial list, then of adds, updates and deletes in order', async () => {
    const { client, informer, errors } = setup();
    await client.create(cm('a'));
    const early = recorder();
    const reg = informer.addEventHandler(early.handler);
    informer.start();
    await informer.waitForSync();
    await waitUntil(() => reg.hasSynced(), 'the handler to get the initial list');
    await client.create(cm('b'));
    const a = await client.get('a');
    await client.update({ ...a, data: { k: 'v' } });
    await client.delete('b');
    await waitUntil(() => early.seen.length === 4, 'the events');
    assert.deepEqual(early.seen, ['add a initial', 'add b', 'update a', 'delete b']);
    const late = recorder();
    const lateReg = informer.addEventHandler(late.handler);
    await waitUntil(() => late.seen.length === 1, 'the late handler');
    assert.deepEqual(late.seen, ['add a initial']);
    assert.equal(lateReg.hasSynced(), true);
    lateReg.remove();
    await client.create(cm('c'));
    await waitUntil(() => early.seen.length === 5, 'c');
    assert.deepEqual(late.seen, ['add a initial']);
    assert.deepEqual(errors, []);
    informer.stop();
  });

  it('hands out the received objects, frozen by the fake, without ever writing to them', async () => {
    const { client, informer, errors } = setup(1000);
    await client.create(cm('a', { k: 'v' }));
    const got: ApiObject[] = [];
    informer.addEventHandler({ add: (o) => got.push(o), update: (_o, n) => got.push(n) });
    informer.start();
    await informer.waitForSync();
    await client.update({ ...(await client.get('a')), data: { k: 'w' } });
    await waitUntil(() => got.length === 2, 'the update');
    assert.ok(Object.isFrozen(got[1].metadata));
    assert.equal(informer.lister.get('ns/a'), got[1]);
    assert.deepEqual(errors, []);
    informer.stop();
  });

  it('resyncs each handler on its own period, never below the informer check period', async () => {
    const { clock, client, informer } = setup(30_000);
    await client.create(cm('a'));
    await client.create(cm('b'));
    const byDefault = recorder();
    const slower = recorder();
    const never = recorder();
    informer.addEventHandler(byDefault.handler);
    informer.addEventHandler(slower.handler, 60_000);
    informer.addEventHandler(never.handler, 0);
    informer.start();
    await informer.waitForSync();
    const faster = recorder();
    informer.addEventHandler(faster.handler, 5_000);
    await waitUntil(() => faster.seen.length === 2, 'the late adds');
    await clock.advance(5_000);
    assert.equal(faster.seen.length, 2, 'raised to the check period once started');
    await clock.advance(25_000);
    await waitUntil(() => byDefault.seen.length === 4, 'the first resync');
    assert.deepEqual(byDefault.seen.slice(2).sort(), ['resync a', 'resync b']);
    assert.equal(faster.seen.length, 4);
    assert.equal(slower.seen.length, 2);
    await clock.advance(30_000);
    await waitUntil(() => slower.seen.length === 4 && byDefault.seen.length === 6, 'the second resync');
    assert.equal(never.seen.length, 2);
    informer.stop();
  });

  it('does not resync when the informer has no resync period, and lowers the check period before start', async () => {
    const none = setup(0);
    await none.client.create(cm('a'));
    const asked = recorder();
    none.informer.addEventHandler(asked.handler, 10_000);
    none.informer.start();
    await none.informer.waitForSync();
    await none.clock.advance(60_000);
    await waitUntil(() => asked.seen.length === 1, 'the add');
    assert.deepEqual(asked.seen, ['add a initial']);
    none.informer.stop();

    const low = setup(30_000);
    await low.client.create(cm('a'));
    const tiny = recorder();
    low.informer.addEventHandler(tiny.handler, 10);
    low.informer.start();
    await low.informer.waitForSync();
    await low.clock.advance(1_000);
    await waitUntil(() => tiny.seen.length === 2, 'a resync after the one-second minimum');
    assert.deepEqual(tiny.seen, ['add a initial', 'resync a']);
    low.informer.stop();
  });

  it('contains a throwing handler: others go on, the error is reported', async () => {
    const { client, informer, errors } = setup();
    const ok = recorder();
    informer.addEventHandler({
      add: () => {
        throw new Error('handler bug');
      },
    });
    informer.addEventHandler(ok.handler);
    informer.start();
    await informer.waitForSync();
    await client.create(cm('a'));
    await waitUntil(() => ok.seen.length === 1 && errors.length === 1, 'both handlers');
    assert.match(String(errors[0]), /handler bug/);
    informer.stop();
  });

  it('after stop: waitForSync rejects, handlers and indexers are refused', async () => {
    const { informer, cluster } = setup();
    cluster.intercept(() => new Promise(() => {}));
    informer.start();
    const waiting = informer.waitForSync();
    informer.stop();
    await assert.rejects(waiting, /informer stopped before it synced/);
    await assert.rejects(informer.waitForSync(), /informer stopped before it synced/);
    assert.throws(() => informer.addEventHandler({}), /has stopped already/);
    assert.throws(() => informer.addIndexers({ x: () => [] }), /has stopped already/);
    const ac = new AbortController();
    const other = setup().informer;
    const w = other.waitForSync(ac.signal);
    ac.abort(new Error('gave up'));
    await assert.rejects(w, /gave up/);
  });
});
