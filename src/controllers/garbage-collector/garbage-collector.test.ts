// The garbage collector against the in-memory fake cluster: background collection of dependents,
// orphaning, foreground deletion waiting for blocking dependents, dangling references beside live
// owners, owners that never existed, owners of unknown kinds, invalid cluster-scoped references,
// a deletion missed by the watch found by a relist, ignored resources, and the descriptor's
// configuration (EnableGarbageCollector, ConcurrentGCSyncs, GCIgnoredResources).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeEventRecorder } from '../../client/events/fake-recorder.ts';
import { SharedInformerFactory } from '../../client/informers/factory.ts';
import { FakeCluster } from '../../client/testing/fake-cluster.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { namingProfile } from '../../naming/index.ts';
import { waitFor, waitUntil } from '../../server/testing/wait-for.ts';
import { GarbageCollectorController } from './garbage-collector.ts';
import { garbageCollectorControllerDescriptor } from './index.ts';
import { CONFIG_MAPS, MemoryLog, NAMESPACES_RESOURCE, SECRETS, StaticDiscovery } from './testing.ts';

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const NS = { group: '', version: 'v1', resource: 'namespaces' };

type Meta = Record<string, unknown>;

const refNames = (o: ApiObject | undefined) =>
  (o?.metadata?.ownerReferences as { name: string }[] | undefined)?.map((r) => r.name);

describe('garbage collector (fake cluster)', () => {
  const cluster = new FakeCluster();
  const discovery = new StaticDiscovery([CONFIG_MAPS, SECRETS, NAMESPACES_RESOURCE]);
  const log = new MemoryLog();
  const events = new FakeEventRecorder();
  const stop = new AbortController();
  let gc: GarbageCollectorController;
  let running: Promise<void>;
  const cms = cluster.resource(CM, 'default');

  const create = (name: string, meta: Meta = {}) =>
    cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta } });
  const get = async (name: string): Promise<ApiObject | undefined> => {
    try {
      return await cms.get(name);
    } catch {
      return undefined;
    }
  };
  const gone = (name: string) => waitUntil(async () => (await get(name)) === undefined, `${name} to go`);
  const ref = (o: ApiObject, extra: Meta = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: o.metadata?.name,
    uid: o.metadata?.uid,
    ...extra,
  });

  before(async () => {
    gc = new GarbageCollectorController({
      client: cluster,
      metadataClient: cluster,
      discovery,
      profile: namingProfile('spec'),
      ignoredResources: [{ Group: '', Resource: 'secrets' }],
      workers: 3,
      fieldManager: 'test-manager',
      log,
      recorder: events,
    });
    running = gc.run(stop.signal);
    await waitUntil(() => gc.monitors.isSynced() && gc.monitors.watched().length === 2, 'the first lists');
  });
  after(async () => {
    stop.abort();
    await running;
  });

  it('watches the deletable resources less the ignored ones', () => {
    assert.deepEqual(gc.monitors.watched(), ['configmaps.', 'namespaces.']);
  });

  it('background: a dependent goes once its owner has gone', async () => {
    const owner = await create('bg-owner');
    await create('bg-dep', { ownerReferences: [ref(owner)] });
    await waitUntil(() => gc.graph.nodes.has(String(owner.metadata?.uid)), 'the owner in the graph');
    await cms.delete('bg-owner');
    await gone('bg-dep');
  });

  it('orphan: dependents lose their reference, then the owner its finalizer (and goes)', async () => {
    const owner = await create('or-owner', { finalizers: ['orphan'] });
    await create('or-dep', { ownerReferences: [ref(owner)] });
    const other = await create('or-other');
    await create('or-dep2', { ownerReferences: [ref(owner), ref(other)] });
    await waitUntil(
      () => gc.graph.nodes.get(String(owner.metadata?.uid))?.dependents?.size === 2,
      'both dependents',
    );
    await cms.delete('or-owner');
    await gone('or-owner');
    assert.equal((await get('or-dep'))?.metadata?.ownerReferences, undefined);
    assert.deepEqual(refNames(await get('or-dep2')), ['or-other']);
    const patches = cluster.callsOf('patch', 'configmaps');
    assert.ok(patches.every((c) => c.opts?.fieldManager === 'test-manager'));
  });

  it('foreground: the owner waits for a blocking dependent, which its own finalizer holds', async () => {
    const owner = await create('fg-owner', { finalizers: ['foregroundDeletion'] });
    await create('fg-dep', {
      ownerReferences: [ref(owner, { blockOwnerDeletion: true })],
      finalizers: ['example.com/hold'],
    });
    await create('fg-free', { ownerReferences: [ref(owner)] });
    await waitUntil(
      () => gc.graph.nodes.get(String(owner.metadata?.uid))?.dependents?.size === 2,
      'dependents',
    );
    await cms.delete('fg-owner');
    await gone('fg-free');
    await waitUntil(
      async () => (await get('fg-dep'))?.metadata?.deletionTimestamp !== undefined,
      'fg-dep deleting',
    );
    assert.ok(await get('fg-owner'), 'the owner waits');
    assert.deepEqual((await get('fg-owner'))?.metadata?.finalizers, ['foregroundDeletion']);
    await cms.patch('fg-dep', 'merge', { metadata: { finalizers: null } });
    await gone('fg-dep');
    await gone('fg-owner');
  });

  it('foreground: a dependent that does not block does not hold the owner', async () => {
    const owner = await create('fg2-owner', { finalizers: ['foregroundDeletion'] });
    await create('fg2-dep', { ownerReferences: [ref(owner)], finalizers: ['example.com/hold'] });
    await waitUntil(
      () => gc.graph.nodes.get(String(owner.metadata?.uid))?.dependents?.size === 1,
      'dependent',
    );
    await cms.delete('fg2-owner');
    await gone('fg2-owner');
    assert.ok((await get('fg2-dep'))?.metadata?.deletionTimestamp);
    await cms.patch('fg2-dep', 'merge', { metadata: { finalizers: null } });
  });

  it('a dependent with a live owner only loses its reference to the gone one', async () => {
    const a = await create('two-a');
    const b = await create('two-b');
    await create('two-dep', { ownerReferences: [ref(a), ref(b)] });
    await waitUntil(() => gc.graph.nodes.get(String(a.metadata?.uid))?.dependents?.size === 1, 'dependent');
    await cms.delete('two-a');
    const dep = await waitFor(
      () => get('two-dep'),
      (o) => o?.metadata?.ownerReferences?.length === 1,
      'the dangling reference to go',
    );
    assert.deepEqual(refNames(dep), ['two-b']);
  });

  it('a dependent whose owner never existed is collected; one whose owner exists stays', async () => {
    const live = await create('live-owner');
    await create('ghost-dep', {
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-never-was' }],
    });
    // A reference with the right name but another uid is dangling too.
    await create('stale-dep', { ownerReferences: [{ ...ref(live), uid: 'uid-of-an-older-live-owner' }] });
    await create('kept-dep', { ownerReferences: [ref(live)] });
    await gone('ghost-dep');
    await gone('stale-dep');
    assert.ok(await get('kept-dep'));
    assert.ok(!gc.graph.nodes.has('uid-never-was'), 'the virtual node is dropped');
  });

  it('an owner of a kind the server does not serve keeps its dependents (and is retried)', async () => {
    await create('unknown-kind-dep', {
      ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'uid-widget' }],
    });
    await waitUntil(
      () => log.lines.some((l) => l.includes('unable to get REST mapping for example.com/v1/Widget')),
      'the mapping failure reported',
    );
    assert.ok(await get('unknown-kind-dep'));
  });

  it('a cluster-scoped object naming a namespaced owner is left alone (with a Warning)', async () => {
    const owner = await create('ns-scoped-owner');
    await waitUntil(
      () => gc.graph.nodes.get(String(owner.metadata?.uid))?.observed === true,
      'the owner seen',
    );
    await cluster.resource(NS).create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'odd', ownerReferences: [ref(owner)] },
    });
    await cluster.resource(NS).create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'odd2',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'uid-x' }],
      },
    });
    await waitUntil(
      () => log.lines.filter((l) => l.includes('refers to a namespaced owner')).length >= 1,
      'the invalid reference noticed',
    );
    assert.ok(await cluster.resource(NS).get('odd2'));
    // Only the owner that was seen proves the reference wrong; one never seen just stays unresolved.
    const warned = events.events.filter((e) => e.reason === 'OwnerRefInvalidNamespace');
    assert.deepEqual(
      warned.map((e) => [e.type, e.object.kind, e.object.metadata?.name, e.message]),
      [
        [
          'Warning',
          'Namespace',
          'odd',
          `ownerRef [v1/ConfigMap, namespace: , name: ns-scoped-owner, uid: ${owner.metadata?.uid}] does not exist in namespace ""`,
        ],
      ],
    );
  });

  it('a deletion the watch missed is found by the relist after 410 Expired', async () => {
    const owner = await create('missed-owner');
    await create('missed-dep', { ownerReferences: [ref(owner)] });
    await waitUntil(
      () => gc.graph.nodes.get(String(owner.metadata?.uid))?.dependents?.size === 1,
      'dependent',
    );
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const unhold = cluster.intercept(async (call) => {
      if (call.resource.resource === 'configmaps' && (call.verb === 'list' || call.verb === 'watch'))
        await held;
    });
    cluster.expireWatches(CM);
    // Deleted while nobody watches, and the history compacted: only a relist can tell.
    await cms.delete('missed-owner');
    cluster.compact();
    unhold();
    release();
    await gone('missed-dep');
  });
});

describe('garbage collector descriptor', () => {
  it('has upstream names and honours EnableGarbageCollector: false', async () => {
    assert.equal(garbageCollectorControllerDescriptor.name, 'garbage-collector-controller');
    assert.deepEqual(garbageCollectorControllerDescriptor.aliases, ['garbagecollector']);
    assert.equal(garbageCollectorControllerDescriptor.serviceAccountName, 'generic-garbage-collector');
    const cluster = new FakeCluster();
    const stop = new AbortController();
    const handle = await garbageCollectorControllerDescriptor.start({
      client: cluster,
      informers: new SharedInformerFactory(cluster),
      config: { GarbageCollectorController: { EnableGarbageCollector: false } },
      discovery: new StaticDiscovery([CONFIG_MAPS]),
      signal: stop.signal,
      log: new MemoryLog(),
    });
    await handle.stop();
    assert.equal(cluster.calls.length, 0);
  });

  it('runs from the configuration: ignored resources are not watched, discovery failures show in check()', async () => {
    const cluster = new FakeCluster();
    const discovery = new StaticDiscovery([CONFIG_MAPS, SECRETS]);
    const stop = new AbortController();
    const handle = await garbageCollectorControllerDescriptor.start({
      client: cluster,
      informers: new SharedInformerFactory(cluster),
      config: {
        GarbageCollectorController: {
          EnableGarbageCollector: true,
          ConcurrentGCSyncs: 2,
          GCIgnoredResources: [{ Group: '', Resource: 'configmaps' }],
        },
      },
      discovery,
      metadataClient: cluster,
      signal: stop.signal,
      log: new MemoryLog(),
    });
    await waitUntil(() => cluster.callsOf('watch', 'secrets').length > 0, 'secrets watched');
    assert.equal(
      cluster.callsOf('list', 'configmaps').length + cluster.callsOf('watch', 'configmaps').length,
      0,
    );
    await handle.check?.();
    stop.abort();
    await handle.stop();

    // Discovery down at start: the controller waits and says so, and never crashes.
    const down = new StaticDiscovery([]);
    down.error = new Error('connect ECONNREFUSED');
    const stop2 = new AbortController();
    const handle2 = await garbageCollectorControllerDescriptor.start({
      client: cluster,
      informers: new SharedInformerFactory(cluster),
      config: {},
      discovery: down,
      metadataClient: cluster,
      signal: stop2.signal,
      log: new MemoryLog(),
    });
    await waitUntil(async () => {
      try {
        await handle2.check?.();
        return false;
      } catch (err) {
        return /discovery failed: connect ECONNREFUSED/.test((err as Error).message);
      }
    }, 'the failure in check()');
    await handle2.stop();
  });
});

describe('garbage collector follows discovery', () => {
  it('watches resources that appear, stops watching those that go, keeps those of failed group versions', async () => {
    const cluster = new FakeCluster();
    const discovery = new StaticDiscovery([CONFIG_MAPS]);
    const gc = new GarbageCollectorController({
      client: cluster,
      metadataClient: cluster,
      discovery,
      profile: namingProfile('spec'),
      ignoredResources: [],
      workers: 1,
      fieldManager: 'test-manager',
      log: new MemoryLog(),
      resyncPeriodMs: 20,
    });
    const stop = new AbortController();
    const running = gc.run(stop.signal);
    await waitUntil(() => gc.monitors.watched().join() === 'configmaps.', 'configmaps watched');
    discovery.resources = [CONFIG_MAPS, SECRETS];
    await waitUntil(() => gc.monitors.watched().join() === 'configmaps.,secrets.', 'secrets watched too');

    // The new resource takes part at once: a Secret owned by a gone ConfigMap is collected.
    const secrets = cluster.resource({ group: '', version: 'v1', resource: 'secrets' }, 'default');
    await secrets.create({
      metadata: {
        name: 's',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'uid-x' }],
      },
    });
    await waitUntil(async () => (await secrets.list()).items.length === 0, 'the secret collected');

    discovery.resources = [SECRETS];
    await waitUntil(() => gc.monitors.watched().join() === 'secrets.', 'configmaps no longer watched');
    discovery.resources = [];
    discovery.failed = { v1: 'the server is currently unable to handle the request' };
    const refreshes = discovery.refreshes;
    await waitUntil(() => discovery.refreshes > refreshes + 2, 'a few more discoveries');
    assert.equal(gc.monitors.watched().join(), 'secrets.', 'a failed group version keeps its watches');
    stop.abort();
    await running;
  });
});
