// The namespace controller against the fake cluster: a terminating namespace with content of
// several kinds is emptied, its conditions say what remains and which finalizers hold it, pods in
// their grace period and finalizers delay it by upstream's estimates, discovery and deletion
// failures show in their conditions, resources without deletecollection are deleted one by one,
// and the finalizer is released once nothing remains. Plus the condition rules themselves.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../client/informers/factory.ts';
import { FakeClock, flushAsync } from '../../client/testing/fake-clock.ts';
import { FakeCluster } from '../../client/testing/fake-cluster.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { internalError } from '../../machinery/status.ts';
import { waitFor, waitUntil } from '../../server/testing/wait-for.ts';
import {
  CONFIG_MAPS,
  discovered,
  MemoryLog,
  NAMESPACES_RESOURCE,
  StaticDiscovery,
} from '../garbage-collector/testing.ts';
import { ConditionUpdater, type NamespaceCondition } from './conditions.ts';
import { namespaceControllerDescriptor } from './index.ts';
import { NamespaceController } from './namespace-controller.ts';
import { NamespacedResourcesDeleter } from './namespaced-resources-deleter.ts';

const gvr = (resource: string) => ({ group: '', version: 'v1', resource });
const SECRETS_NO_COLLECTION = discovered('', 'v1', 'secrets', 'Secret', true, [
  'delete',
  'get',
  'list',
  'watch',
]);
const PODS = discovered('', 'v1', 'pods', 'Pod', true);

type Ns = ApiObject & { spec?: { finalizers?: string[] }; status?: { conditions?: NamespaceCondition[] } };

describe('namespace conditions', () => {
  it('all clear: five False conditions with upstream reasons; a change of status moves lastTransitionTime', () => {
    const list: NamespaceCondition[] = [];
    assert.equal(new ConditionUpdater('2026-01-01T00:00:00Z').update(list), true);
    assert.deepEqual(
      list.map((c) => [c.type, c.status, c.reason]),
      [
        ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered'],
        ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions'],
        ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted'],
        ['NamespaceContentRemaining', 'False', 'ContentRemoved'],
        ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers'],
      ],
    );
    assert.equal(new ConditionUpdater('2026-01-01T00:00:01Z').update(list), false);
    const u = new ConditionUpdater('2026-01-01T00:00:02Z');
    u.contentTotals(
      new Map([
        ['pods.', 2],
        ['widgets.example.com', 1],
      ]),
      new Map([['x/y', 1]]),
    );
    u.deleteContentFailed('b failed');
    u.deleteContentFailed('a failed');
    u.discoveryFailed('', {
      'metrics.example.com/v1beta1': 'the server is currently unable to handle the request',
    });
    assert.equal(u.update(list), true);
    const byType = Object.fromEntries(list.map((c) => [c.type, c]));
    assert.equal(
      byType.NamespaceContentRemaining?.message,
      'Some resources are remaining: pods. has 2 resource instances, widgets.example.com has 1 resource instances',
    );
    assert.equal(byType.NamespaceContentRemaining?.lastTransitionTime, '2026-01-01T00:00:02Z');
    assert.equal(byType.NamespaceFinalizersRemaining?.reason, 'SomeFinalizersRemain');
    assert.equal(
      byType.NamespaceFinalizersRemaining?.message,
      'Some content in the namespace has finalizers remaining: x/y in 1 resource instances',
    );
    assert.equal(
      byType.NamespaceDeletionContentFailure?.message,
      'Failed to delete all resource types, 2 remaining: a failed, b failed',
    );
    assert.equal(
      byType.NamespaceDeletionDiscoveryFailure?.message,
      'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.example.com/v1beta1: the server is currently unable to handle the request',
    );
    assert.equal(
      byType.NamespaceDeletionGroupVersionParsingFailure?.lastTransitionTime,
      '2026-01-01T00:00:00Z',
    );
  });
});

describe('namespace controller (fake cluster)', () => {
  const clock = new FakeClock(Date.now());
  const cluster = new FakeCluster({ clock });
  const discovery = new StaticDiscovery([CONFIG_MAPS, SECRETS_NO_COLLECTION, PODS, NAMESPACES_RESOURCE]);
  const informers = new SharedInformerFactory(cluster);
  const log = new MemoryLog();
  const stop = new AbortController();
  let controller: NamespaceController;
  let running: Promise<void>;
  const namespaces = cluster.resource(gvr('namespaces'));

  const ns = async (name: string): Promise<Ns | undefined> => {
    try {
      return (await namespaces.get(name)) as Ns;
    } catch {
      return undefined;
    }
  };
  const condition = async (name: string, type: string) =>
    (await ns(name))?.status?.conditions?.find((c) => c.type === type);
  const count = async (resource: string, namespace: string) =>
    (await cluster.resource(gvr(resource), namespace).list()).items.length;
  /** Steps the queue's clock through every pending wait, one at a time, until `cond` holds. */
  const stepUntil = async (cond: () => Promise<boolean>, what: string) => {
    await waitUntil(async () => {
      if (await cond()) return true;
      const next = clock.nextTimerAt();
      if (next !== undefined) clock.step(Math.max(0, next - clock.now()));
      await flushAsync();
      return false;
    }, what);
  };
  /** A namespace as the server keeps one: our finalizer in spec, and (for the fake) one in metadata. */
  const makeNamespace = (name: string) =>
    namespaces.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, finalizers: ['test/keep-for-assertions'] },
      spec: { finalizers: ['platform'] },
      status: { phase: 'Active' },
    });

  before(async () => {
    const deleter = new NamespacedResourcesDeleter({
      client: cluster,
      metadataClient: cluster,
      discovery,
      finalizer: 'platform',
      fieldManager: 'test-manager',
      now: () => clock.now(),
    });
    controller = new NamespaceController({
      namespaces: informers.forResource(gvr('namespaces')),
      deleter,
      workers: 2,
      resyncPeriodMs: 0,
      log,
      clock,
    });
    informers.start();
    running = controller.run(stop.signal);
  });
  after(async () => {
    stop.abort();
    controller.stop();
    await running;
    informers.stop();
  });

  it('empties a namespace of several kinds, reports what holds it, and releases it when nothing is left', async () => {
    await makeNamespace('doomed');
    const cms = cluster.resource(gvr('configmaps'), 'doomed');
    for (const n of ['a', 'b', 'c']) await cms.create({ metadata: { name: n } });
    await cms.create({ metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    await cluster.resource(gvr('secrets'), 'doomed').create({ metadata: { name: 's' } });
    await cluster.resource(gvr('pods'), 'doomed').create({
      metadata: { name: 'p' },
      spec: { terminationGracePeriodSeconds: 30 },
    });
    await namespaces.delete('doomed');
    await stepUntil(
      async () => (await condition('doomed', 'NamespaceContentRemaining'))?.status === 'True',
      'the remaining-content condition',
    );
    assert.equal(
      (await condition('doomed', 'NamespaceContentRemaining'))?.message,
      'Some resources are remaining: configmaps. has 1 resource instances',
    );
    assert.equal(
      (await condition('doomed', 'NamespaceFinalizersRemaining'))?.message,
      'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    );
    assert.equal((await condition('doomed', 'NamespaceDeletionContentFailure'))?.status, 'False');
    assert.equal(await count('secrets', 'doomed'), 0, 'deleted one by one (no deletecollection)');
    assert.equal(await count('pods', 'doomed'), 0);
    assert.deepEqual((await ns('doomed'))?.spec?.finalizers, ['platform']);
    assert.ok(cluster.callsOf('delete', 'secrets').length === 1);
    assert.ok(
      cluster
        .callsOf('deletecollection', 'configmaps')
        .every((c) => c.opts?.propagationPolicy === 'Background'),
    );
    assert.ok(cluster.callsOf('update', 'namespaces').every((c) => c.opts?.fieldManager === 'test-manager'));

    await cms.patch('held', 'merge', { metadata: { finalizers: null } });
    await stepUntil(
      async () => (await ns('doomed'))?.spec?.finalizers?.length === 0,
      'the finalizer released',
    );
    assert.equal((await condition('doomed', 'NamespaceContentRemaining'))?.status, 'False');
    assert.equal((await condition('doomed', 'NamespaceFinalizersRemaining'))?.status, 'False');
  });

  it('a partial discovery failure shows in its condition and holds the namespace until discovery recovers', async () => {
    await makeNamespace('partial');
    await cluster.resource(gvr('configmaps'), 'partial').create({ metadata: { name: 'x' } });
    discovery.failed = {
      'metrics.example.com/v1beta1': 'the server is currently unable to handle the request',
    };
    await namespaces.delete('partial');
    await stepUntil(
      async () => (await condition('partial', 'NamespaceDeletionDiscoveryFailure'))?.status === 'True',
      'the discovery condition',
    );
    assert.match(
      String((await condition('partial', 'NamespaceDeletionDiscoveryFailure'))?.message),
      /^Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics\.example\.com\/v1beta1: /,
    );
    assert.equal(await count('configmaps', 'partial'), 0, 'what was found is emptied anyway');
    assert.deepEqual((await ns('partial'))?.spec?.finalizers, ['platform']);
    discovery.failed = {};
    await stepUntil(async () => (await ns('partial'))?.spec?.finalizers?.length === 0, 'the release');
  });

  it('a group version that does not parse shows in its condition and holds the namespace', async () => {
    await makeNamespace('unparsed');
    const bad = discovered('odd/group', 'v1', 'things', 'Thing', true);
    discovery.resources.push(bad);
    await namespaces.delete('unparsed');
    await stepUntil(
      async () =>
        (await condition('unparsed', 'NamespaceDeletionGroupVersionParsingFailure'))?.status === 'True',
      'the parsing condition',
    );
    assert.equal(
      (await condition('unparsed', 'NamespaceDeletionGroupVersionParsingFailure'))?.message,
      'unexpected GroupVersion string: odd/group/v1',
    );
    discovery.resources = discovery.resources.filter((r) => r !== bad);
    await stepUntil(async () => (await ns('unparsed'))?.spec?.finalizers?.length === 0, 'the release');
  });

  it('a failing deletion shows in NamespaceDeletionContentFailure and is retried', async () => {
    await makeNamespace('stuck');
    await cluster.resource(gvr('configmaps'), 'stuck').create({ metadata: { name: 'x' } });
    const remove = cluster.intercept((call) => {
      if (call.verb === 'deletecollection' && call.namespace === 'stuck')
        throw internalError(new Error('disk on fire'));
    });
    await namespaces.delete('stuck');
    const failure = await waitFor(
      async () => {
        const next = clock.nextTimerAt();
        if (next !== undefined) clock.step(Math.max(0, next - clock.now()));
        await flushAsync();
        return condition('stuck', 'NamespaceDeletionContentFailure');
      },
      (c) => c?.status === 'True',
      'the content failure',
    );
    assert.equal(failure?.reason, 'ContentDeletionFailed');
    assert.match(
      String(failure?.message),
      /^Failed to delete all resource types, 2 remaining: Internal error occurred: disk on fire, Internal error occurred: disk on fire$/,
    );
    assert.ok(log.lines.some((l) => l.includes('deletion of namespace failed')));
    remove();
    await stepUntil(async () => (await ns('stuck'))?.spec?.finalizers?.length === 0, 'the release');
  });
});

describe('namespace controller descriptor', () => {
  it('has upstream names and reads NamespaceController', async () => {
    assert.equal(namespaceControllerDescriptor.name, 'namespace-controller');
    assert.deepEqual(namespaceControllerDescriptor.aliases, ['namespace']);
    assert.equal(namespaceControllerDescriptor.serviceAccountName, 'namespace-controller');
    const cluster = new FakeCluster();
    const informers = new SharedInformerFactory(cluster);
    const stop = new AbortController();
    const handle = await namespaceControllerDescriptor.start({
      client: cluster,
      informers,
      config: { NamespaceController: { NamespaceSyncPeriod: '1m0s', ConcurrentNamespaceSyncs: 3 } },
      discovery: new StaticDiscovery([CONFIG_MAPS]),
      metadataClient: cluster,
      signal: stop.signal,
      log: new MemoryLog(),
    });
    informers.start();
    await waitUntil(
      () => cluster.callsOf('watch', 'namespaces').length + cluster.callsOf('list', 'namespaces').length > 0,
      'namespaces watched',
    );
    stop.abort();
    await handle.stop();
    informers.stop();
    assert.ok(handle.check === undefined || (await handle.check()) === undefined);
  });
});
