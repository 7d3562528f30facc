// The event recorder against the fake cluster: the Event's shape, counting an identical event by
// patch, aggregation of many messages, the spam filter, retries of transport failures only, the
// bounded queue, and stop() flushing what is queued.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { ApiError } from '../../machinery/status.ts';
import { FakeClock, flushAsync } from '../testing/fake-clock.ts';
import { FakeCluster } from '../testing/fake-cluster.ts';
import { FakeEventRecorder } from './fake-recorder.ts';
import { createEventRecorder, EVENTS } from './recorder.ts';

const rs: ApiObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web', namespace: 'ns', uid: 'rs-uid', resourceVersion: '7' },
};

function setup() {
  const clock = new FakeClock();
  const cluster = new FakeCluster({ clock });
  const logs: string[] = [];
  const recorder = createEventRecorder(cluster, 'replicaset-controller', { clock, log: (m) => logs.push(m) });
  const list = async (ns = 'ns') => (await cluster.resource(EVENTS, ns).list()).items as ApiObject[];
  return { clock, cluster, recorder, logs, list };
}

describe('event recorder', () => {
  it('writes a core v1 Event about the object, named <object>.<hex time>', async () => {
    const { clock, recorder, list } = setup();
    recorder.event(rs, 'Normal', 'SuccessfulCreate', 'Created pod: web-abcde');
    await recorder.stop();
    const [ev, ...rest] = await list();
    assert.equal(rest.length, 0);
    assert.ok(ev);
    const t = new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    assert.match(String(ev.metadata?.name), /^web\.[0-9a-f]+$/);
    assert.equal(ev.metadata?.namespace, 'ns');
    assert.deepEqual(ev.involvedObject, {
      kind: 'ReplicaSet',
      namespace: 'ns',
      name: 'web',
      uid: 'rs-uid',
      apiVersion: 'apps/v1',
      resourceVersion: '7',
    });
    assert.equal(ev.reason, 'SuccessfulCreate');
    assert.equal(ev.message, 'Created pod: web-abcde');
    assert.equal(ev.type, 'Normal');
    assert.equal(ev.count, 1);
    assert.equal(ev.firstTimestamp, t);
    assert.equal(ev.lastTimestamp, t);
    assert.deepEqual(ev.source, { component: 'replicaset-controller' });
    assert.equal(ev.reportingComponent, 'replicaset-controller');
    assert.equal(ev.reportingInstance, '');
  });

  it('puts events about cluster-scoped objects in default, and drops objects without a kind', async () => {
    const { recorder, list, logs } = setup();
    recorder.event(
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'u' } },
      'Warning',
      'R',
      'm',
    );
    recorder.event({ metadata: { name: 'x' } }, 'Normal', 'R', 'm');
    await recorder.stop();
    assert.equal((await list('default')).length, 1);
    assert.ok(logs.some((l) => l.includes('could not construct a reference')));
  });

  it('counts an identical event on the existing Event by patch', async () => {
    const { clock, cluster, recorder, list } = setup();
    recorder.event(rs, 'Warning', 'FailedCreate', 'quota');
    await flushAsync();
    clock.step(60_000);
    recorder.event(rs, 'Warning', 'FailedCreate', 'quota');
    await recorder.stop();
    const events = await list();
    assert.equal(events.length, 1);
    const [ev] = events;
    assert.equal(ev?.count, 2);
    assert.notEqual(ev?.firstTimestamp, ev?.lastTimestamp);
    assert.equal(cluster.callsOf('patch', 'events').length, 1);
  });

  it('creates the Event anew when the counted one is gone', async () => {
    const { cluster, recorder, list } = setup();
    recorder.event(rs, 'Normal', 'R', 'same');
    await flushAsync();
    const [first] = await list();
    await cluster.resource(EVENTS, 'ns').delete(String(first?.metadata?.name));
    recorder.event(rs, 'Normal', 'R', 'same');
    await recorder.stop();
    const events = await list();
    assert.equal(events.length, 1);
    assert.equal(events[0]?.count, 2);
  });

  it('combines the tenth different message of one reason within ten minutes', async () => {
    const { recorder, list } = setup();
    for (let i = 0; i < 10; i++) recorder.event(rs, 'Warning', 'FailedCreate', `error ${i}`);
    await recorder.stop();
    const messages = (await list()).map((e) => String(e.message));
    assert.equal(messages.length, 10);
    assert.ok(messages.includes('(combined from similar events): error 9'));
  });

  it('rate limits one object: a burst of 25, then one per five minutes', async () => {
    const { clock, recorder, list } = setup();
    // Distinct reasons, so aggregation does not fold them.
    for (let i = 0; i < 30; i++) recorder.event(rs, 'Normal', `Reason${i}`, 'm');
    await flushAsync();
    for (let i = 0; i < 50 && (await list()).length < 25; i++) await flushAsync();
    assert.equal((await list()).length, 25);
    clock.step(300_000);
    recorder.event(rs, 'Normal', 'Later', 'm');
    recorder.event(rs, 'Normal', 'Later2', 'm');
    await recorder.stop();
    const reasons = (await list()).map((e) => e.reason);
    assert.equal(reasons.length, 26);
    assert.ok(reasons.includes('Later'));
  });

  it('retries a transport failure, but not a refusal by the server', async () => {
    const { clock, cluster, recorder, list, logs } = setup();
    cluster.failNext('create', new Error('connection reset'), { resource: 'events' });
    recorder.event(rs, 'Normal', 'A', 'm');
    for (let i = 0; i < 50 && clock.pendingTimers() === 0; i++) await flushAsync();
    assert.equal(clock.pendingTimers(), 1, 'a retry is scheduled');
    await clock.advance(10_000);
    for (let i = 0; i < 50 && (await list()).length === 0; i++) await flushAsync();
    assert.equal((await list()).length, 1);

    cluster.failNext(
      'create',
      new ApiError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        code: 422,
        reason: 'Invalid',
        message: 'bad',
      }),
      { resource: 'events' },
    );
    recorder.event(rs, 'Normal', 'B', 'm');
    await recorder.stop();
    assert.equal(cluster.callsOf('create', 'events').length, 3);
    assert.equal((await list()).length, 1);
    assert.ok(logs.some((l) => l.includes('will not retry')));
  });

  it('never blocks the caller, drops past its queue bound, and flushes on stop', async () => {
    const clock = new FakeClock();
    const cluster = new FakeCluster({ clock });
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    cluster.intercept((call) => (call.resource.resource === 'events' ? gate : undefined));
    const logs: string[] = [];
    const recorder = createEventRecorder(cluster, 'c', { clock, maxQueued: 3, log: (m) => logs.push(m) });
    // The first is taken by the writer (blocked on the gate), three wait, the fifth is dropped.
    for (let i = 0; i < 5; i++) recorder.event(rs, 'Normal', `R${i}`, 'm');
    await flushAsync();
    assert.ok(logs.some((l) => l.includes('too many queued events')));
    const stopped = recorder.stop();
    release();
    await stopped;
    assert.equal((await cluster.resource(EVENTS, 'ns').list()).items.length, 4);
    recorder.event(rs, 'Normal', 'after', 'm');
    await flushAsync();
    assert.equal((await cluster.resource(EVENTS, 'ns').list()).items.length, 4, 'nothing after stop');
  });
});

describe('FakeEventRecorder', () => {
  it('keeps what was recorded', () => {
    const f = new FakeEventRecorder();
    f.event(rs, 'Warning', 'FailedCreate', 'x');
    assert.deepEqual(f.reasons(), ['FailedCreate']);
    assert.equal(f.events[0]?.object, rs);
  });
});
