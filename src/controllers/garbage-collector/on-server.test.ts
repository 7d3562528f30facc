// The garbage collector's descriptor against a real in-process API server (started without its
// in-server controllers) through the HTTP client, metadata-only watches and discovery: background,
// foreground (blocking dependents, a cascade through a dependent with dependents of its own) and
// orphan deletion, dangling references beside live owners, owners that never existed,
// dependents of another kind than their owner, and the OwnerRefInvalidNamespace Warning written
// about a cluster-scoped dependent naming a namespaced owner.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResourceClient } from '../../client/api.ts';
import { restOptionsFromPlatconfig } from '../../client/config.ts';
import { SharedInformerFactory } from '../../client/informers/factory.ts';
import { RestClient } from '../../client/rest-client.ts';
import type { ApiObject } from '../../machinery/object.ts';
import { namingProfile } from '../../naming/index.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/index.ts';
import { waitFor, waitUntil } from '../../server/testing/wait-for.ts';
import type { RunningController } from '../controller.ts';
import { garbageCollectorControllerDescriptor } from './index.ts';
import { MetadataClient } from './metadata-client.ts';
import { MemoryLog } from './testing.ts';

const SPEC = namingProfile('spec');
const CM = { group: '', version: 'v1', resource: 'configmaps' };
const SECRETS = { group: '', version: 'v1', resource: 'secrets' };

type Meta = Record<string, unknown>;

describe('garbage collector on a server', () => {
  let t: TestApiServer;
  let client: RestClient;
  let gc: RunningController;
  const stop = new AbortController();
  const log = new MemoryLog();
  let cms: ResourceClient;

  const create = (name: string, meta: Meta = {}) =>
    cms.create({ metadata: { name, ...meta }, data: { k: 'v' } });
  const get = async (name: string, rc: ResourceClient = cms): Promise<ApiObject | undefined> => {
    try {
      return await rc.get(name);
    } catch {
      return undefined;
    }
  };
  const gone = (name: string, rc: ResourceClient = cms) =>
    waitUntil(async () => (await get(name, rc)) === undefined, `${name} to go`);
  const ref = (o: ApiObject, extra: Meta = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: o.metadata?.name,
    uid: o.metadata?.uid,
    ...extra,
  });

  before(async () => {
    t = await startTestApiServer();
    client = new RestClient({ ...restOptionsFromPlatconfig(t.server.adminConfigPath), qps: -1 });
    cms = client.resource(CM, 'default');
    gc = await garbageCollectorControllerDescriptor.start({
      client,
      informers: new SharedInformerFactory(client),
      config: {},
      naming: SPEC,
      signal: stop.signal,
      log,
    });
  });
  after(async () => {
    stop.abort();
    await gc?.stop();
    client?.close();
    await t?.stop();
  });

  it('the metadata client reads metadata alone', async () => {
    await create('meta-only', { labels: { a: 'b' } });
    const meta = new MetadataClient(client).resource(CM, 'default');
    const one = await meta.get('meta-only');
    assert.equal(one.kind, 'PartialObjectMetadata');
    assert.deepEqual(one.metadata?.labels, { a: 'b' });
    assert.equal(one.data, undefined);
    const list = await meta.list();
    assert.ok(list.items.length > 0 && list.items.every((i) => i.data === undefined));
    const patched = await meta.patch('meta-only', 'merge', { metadata: { labels: { a: 'c' } } });
    // The server answers a patch whole for now; either form carries the metadata.
    assert.deepEqual(patched.metadata?.labels, { a: 'c' });
    await cms.delete('meta-only');
  });

  it('background: dependents of another kind go once the owner has gone', async () => {
    const owner = await create('bg-owner');
    await create('bg-dep', { ownerReferences: [ref(owner)] });
    const secrets = client.resource(SECRETS, 'default');
    await secrets.create({ metadata: { name: 'bg-secret', ownerReferences: [ref(owner)] } });
    await cms.delete('bg-owner');
    await gone('bg-dep');
    await gone('bg-secret', secrets);
  });

  it('orphan: the dependent keeps living without its reference', async () => {
    const owner = await create('or-owner');
    await create('or-dep', { ownerReferences: [ref(owner)] });
    const pending = (await cms.delete('or-owner', { propagationPolicy: 'Orphan' })) as ApiObject;
    assert.deepEqual(pending.metadata?.finalizers, ['orphan']);
    await gone('or-owner');
    const dep = await get('or-dep');
    assert.ok(dep);
    assert.equal(dep?.metadata?.ownerReferences, undefined);
  });

  it('foreground: the owner waits for a blocking dependent, and not for one that does not block', async () => {
    const owner = await create('fg-owner');
    await create('fg-dep', {
      ownerReferences: [ref(owner, { blockOwnerDeletion: true })],
      finalizers: ['example.com/hold'],
    });
    await create('fg-free', { ownerReferences: [ref(owner)], finalizers: ['example.com/hold'] });
    const pending = (await cms.delete('fg-owner', { propagationPolicy: 'Foreground' })) as ApiObject;
    assert.deepEqual(pending.metadata?.finalizers, ['foregroundDeletion']);
    await waitUntil(
      async () =>
        (await get('fg-dep'))?.metadata?.deletionTimestamp !== undefined &&
        (await get('fg-free'))?.metadata?.deletionTimestamp !== undefined,
      'both dependents deleting',
    );
    assert.ok(await get('fg-owner'), 'the owner waits for its blocking dependent');
    await cms.patch('fg-free', 'merge', { metadata: { finalizers: null } });
    await gone('fg-free');
    assert.ok(await get('fg-owner'), 'still waiting');
    await cms.patch('fg-dep', 'merge', { metadata: { finalizers: null } });
    await gone('fg-dep');
    await gone('fg-owner');
  });

  it('foreground cascades through a dependent that has blocking dependents of its own', async () => {
    const top = await create('cascade-top');
    const middle = await create('cascade-middle', {
      ownerReferences: [ref(top, { blockOwnerDeletion: true })],
    });
    await create('cascade-leaf', {
      ownerReferences: [ref(middle, { blockOwnerDeletion: true })],
      finalizers: ['example.com/hold'],
    });
    await cms.delete('cascade-top', { propagationPolicy: 'Foreground' });
    await waitUntil(
      async () =>
        (await get('cascade-middle'))?.metadata?.finalizers?.includes('foregroundDeletion') === true,
      'the middle deleted in the foreground',
    );
    await waitUntil(
      async () => (await get('cascade-leaf'))?.metadata?.deletionTimestamp !== undefined,
      'the leaf deleting',
    );
    assert.ok(await get('cascade-top'));
    assert.ok(await get('cascade-middle'));
    await cms.patch('cascade-leaf', 'merge', { metadata: { finalizers: null } });
    await gone('cascade-leaf');
    await gone('cascade-middle');
    await gone('cascade-top');
  });

  it('dangling references: one to a gone owner is dropped beside a live one; an owner that never was', async () => {
    const a = await create('two-a');
    const b = await create('two-b');
    await create('two-dep', { ownerReferences: [ref(a), ref(b)] });
    await create('ghost-dep', {
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-0000-0000-000000000001' },
      ],
    });
    await cms.delete('two-a');
    const dep = await waitFor(
      () => get('two-dep'),
      (o) => o?.metadata?.ownerReferences?.length === 1,
      'the dangling reference to go',
    );
    assert.equal((dep?.metadata?.ownerReferences?.[0] as { name?: string })?.name, 'two-b');
    await gone('ghost-dep');
  });

  it('a cluster-scoped dependent naming a namespaced owner gets a Warning Event, and stays', async () => {
    const owner = await create('ns-owner');
    const namespaces = client.resource({ group: '', version: 'v1', resource: 'namespaces' });
    await namespaces.create({ metadata: { name: 'owned-ns', ownerReferences: [ref(owner)] } });
    const events = client.resource({ group: '', version: 'v1', resource: 'events' }, 'default');
    const [warning] = await waitFor(
      async () => (await events.list({ fieldSelector: 'involvedObject.name=owned-ns' })).items,
      (items) => items.length > 0,
      'the Warning about owned-ns',
    );
    const e = warning as ApiObject & Record<string, unknown>;
    assert.equal(e.type, 'Warning');
    assert.equal(e.reason, 'OwnerRefInvalidNamespace');
    assert.equal(
      e.message,
      `ownerRef [v1/ConfigMap, namespace: , name: ns-owner, uid: ${owner.metadata?.uid}] does not exist in namespace ""`,
    );
    assert.deepEqual(e.source, { component: 'garbage-collector-controller' });
    assert.equal((e.involvedObject as { kind?: string }).kind, 'Namespace');
    assert.ok(await get('owned-ns', namespaces), 'the dependent is left alone');
  });
});
