// The pod garbage collector against the fake cluster: terminated Pods beyond the threshold (evicted
// first, then oldest), orphaned Pods only after the node's quarantine and a confirming read (marked
// Failed with a DisruptionTarget condition, then force-deleted), unscheduled terminating Pods,
// terminating Pods of an out-of-service node, and the descriptor as the manager sees it.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../client/informers/factory.ts';
import { FakeClock } from '../../client/testing/fake-clock.ts';
import { FakeCluster } from '../../client/testing/fake-cluster.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { outOfServiceTaintKey } from '../../naming/node-taints.ts';
import { namingProfile } from '../../naming/profile.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { PODS } from '../controller-support.ts';
import { MemoryLog } from '../garbage-collector/testing.ts';
import {
  byEvictionAndCreation,
  DEFAULT_TERMINATED_POD_GC_THRESHOLD,
  PodGCController,
  podGCControllerDescriptor,
  QUARANTINE_MS,
  terminatedPodThreshold,
} from './index.ts';

const NODES = { group: '', version: 'v1', resource: 'nodes' };
const TAINT = outOfServiceTaintKey(namingProfile('spec'));

describe('pod GC', () => {
  let clock: FakeClock;
  let cluster: FakeCluster;
  let informers: SharedInformerFactory;
  let log: MemoryLog;

  beforeEach(() => {
    clock = new FakeClock();
    cluster = new FakeCluster({ clock, freezeObjects: false });
    informers = new SharedInformerFactory(cluster);
    log = new MemoryLog();
  });
  afterEach(() => informers.stop());

  const pod = (
    name: string,
    status: Record<string, unknown> = {},
    spec: Record<string, unknown> = {},
    meta: Record<string, unknown> = {},
  ) =>
    cluster.resource(PODS, 'default').create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, ...meta },
      spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
      status,
    });
  const node = (name: string, spec: Record<string, unknown> = {}, ready = true) =>
    cluster.resource(NODES).create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      spec,
      status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    });
  const start = async (threshold: number) => {
    const c = new PodGCController({
      client: cluster,
      pods: informers.forResource(PODS),
      nodes: informers.forResource(NODES),
      terminatedPodThreshold: threshold,
      outOfServiceTaintKey: TAINT,
      log,
      clock,
    });
    informers.start();
    await informers.waitForSync();
    return c;
  };
  const deleted = () =>
    cluster
      .callsOf('delete', 'pods')
      .map((c) => `${c.name}:${(c.opts as { gracePeriodSeconds?: number }).gracePeriodSeconds}`);
  const stored = async () =>
    (await cluster.resource(PODS, 'default').list()).items.map((p) => p.metadata?.name).sort();

  it('deletes terminated Pods beyond the threshold: evicted first, then the oldest', async () => {
    await pod('old-done', { phase: 'Succeeded' });
    clock.step(1000);
    await pod('running', { phase: 'Running' });
    await pod('mid-failed', { phase: 'Failed' });
    clock.step(1000);
    await pod('new-evicted', { phase: 'Failed', reason: 'Evicted' });
    await pod('new-done', { phase: 'Succeeded' });
    const c = await start(2);
    await c.gc();
    assert.deepEqual(deleted().sort(), ['new-evicted:0', 'old-done:0']);
    assert.deepEqual(await stored(), ['mid-failed', 'new-done', 'running']);
    // Already finished: no status apply before the delete.
    assert.equal(cluster.callsOf('apply', 'pods').length, 0);
  });

  it('keeps every terminated Pod with a threshold of 0', async () => {
    await pod('done', { phase: 'Succeeded' });
    const c = await start(0);
    await c.gc();
    assert.deepEqual(deleted(), []);
  });

  it('orphaned Pods: quarantined, confirmed by a read, marked Failed with DisruptionTarget, then force-deleted', async () => {
    await node('alive');
    await pod('on-alive', { phase: 'Running' }, { nodeName: 'alive' });
    await pod('on-gone', { phase: 'Running' }, { nodeName: 'gone' });
    await pod('on-late', { phase: 'Running' }, { nodeName: 'late' });
    const c = await start(DEFAULT_TERMINATED_POD_GC_THRESHOLD);
    await c.gc();
    assert.deepEqual(deleted(), [], 'nothing before the quarantine ends');
    // The node `late` appears in the API (not yet in this pass's listing) during the quarantine.
    clock.step(QUARANTINE_MS);
    await node('late');
    await c.gc();
    assert.deepEqual(deleted(), ['on-gone:0']);
    const gets = cluster.callsOf('get', 'nodes').map((g) => g.name);
    assert.ok(gets.includes('gone'), `the node was read before deleting: ${gets}`);
    const apply = cluster.callsOf('apply', 'pods');
    assert.equal(apply.length, 1);
    assert.deepEqual(apply[0]?.opts, { fieldManager: 'PodGC', force: true, subresource: 'status' });
    assert.deepEqual(await stored(), ['on-alive', 'on-late']);
  });

  it('the Failed mark carries the DisruptionTarget condition', async () => {
    // A finalizer keeps the Pod readable after the forced delete.
    await pod('orphan', { phase: 'Running' }, { nodeName: 'gone' }, { finalizers: ['example.test/hold'] });
    const c = await start(10);
    await c.gc();
    clock.step(QUARANTINE_MS);
    await c.gc();
    const left = await cluster.resource(PODS, 'default').get('orphan');
    const status = left.status as { phase: string; conditions: Record<string, string>[] };
    assert.equal(status.phase, 'Failed');
    assert.deepEqual(status.conditions, [
      {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByPodGC',
        message: 'PodGC: node no longer exists',
        lastTransitionTime: new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    ]);
    assert.ok(left.metadata?.deletionTimestamp !== undefined);
  });

  it('unscheduled terminating Pods and terminating Pods of an out-of-service NotReady node', async () => {
    await node('down', { taints: [{ key: TAINT, value: 'nodeshutdown', effect: 'NoExecute' }] }, false);
    await node('up', { taints: [{ key: TAINT, effect: 'NoExecute' }] }, true);
    const held = { finalizers: ['example.test/hold'] };
    await pod('unscheduled', { phase: 'Pending' }, {}, held);
    await pod('on-down', { phase: 'Running' }, { nodeName: 'down' }, held);
    await pod('on-up', { phase: 'Running' }, { nodeName: 'up' }, held);
    await pod('on-down-alive', { phase: 'Running' }, { nodeName: 'down' });
    for (const n of ['unscheduled', 'on-down', 'on-up']) await cluster.resource(PODS, 'default').delete(n);
    cluster.calls.length = 0;
    const c = await start(10);
    await c.gc();
    assert.deepEqual(deleted().sort(), ['on-down:0', 'unscheduled:0']);
  });

  it('sorts evicted first, then by creation time, then by name', () => {
    const p = (name: string, ts: string, evicted = false): ApiObject => ({
      metadata: { name, creationTimestamp: ts },
      status: evicted ? { phase: 'Failed', reason: 'Evicted' } : { phase: 'Succeeded' },
    });
    const sorted = [
      p('b', '2026-01-01T00:00:01Z'),
      p('a', '2026-01-01T00:00:01Z'),
      p('z', '2026-01-01T00:00:09Z', true),
      p('c', '2026-01-01T00:00:00Z'),
    ]
      .sort(byEvictionAndCreation)
      .map((x) => x.metadata?.name);
    assert.deepEqual(sorted, ['z', 'c', 'a', 'b']);
  });

  it('the descriptor: names, threshold from PodGCController, and a run that collects', async () => {
    assert.equal(podGCControllerDescriptor.name, 'pod-garbage-collector-controller');
    assert.deepEqual(podGCControllerDescriptor.aliases, ['podgc']);
    assert.equal(podGCControllerDescriptor.serviceAccountName, 'pod-garbage-collector');
    assert.equal(terminatedPodThreshold({}), 12500);
    assert.equal(terminatedPodThreshold({ PodGCController: { TerminatedPodGCThreshold: 1 } }), 1);
    await pod('a', { phase: 'Succeeded' });
    clock.step(1000);
    await pod('b', { phase: 'Succeeded' });
    const stop = new AbortController();
    const running = await podGCControllerDescriptor.start({
      client: cluster,
      informers,
      config: { PodGCController: { TerminatedPodGCThreshold: 1 } },
      signal: stop.signal,
      log,
    });
    informers.start();
    try {
      await waitUntil(async () => (await stored()).join() === 'b', 'the older terminated Pod collected');
    } finally {
      await running.stop();
    }
  });
});
