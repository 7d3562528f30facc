// Deletion through HTTP with the in-process controllers: propagation policies over ownerReferences
// (garbage collector) and namespace deletion (namespace deleter).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { componentName, namingProfile } from '../naming/index.ts';
import { type Caller, startTestControlPlane, type TestApiServer } from './testing/index.ts';

const SPEC = namingProfile('spec');

type Obj = { metadata: Record<string, unknown> & { uid: string; name: string } };

async function eventually(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function helpers(call: Caller, ns: string) {
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  const create = async (name: string, meta: Record<string, unknown> = {}): Promise<Obj> => {
    const r = await call({
      method: 'POST',
      path: base,
      body: JSON.stringify({ metadata: { name, ...meta } }),
    });
    assert.equal(r.status, 201, r.body);
    return r.json() as unknown as Obj;
  };
  const get = async (name: string) => call({ path: `${base}/${name}` });
  const exists = async (name: string) => (await get(name)).status === 200;
  const del = (name: string, query = '') => call({ method: 'DELETE', path: `${base}/${name}${query}` });
  const ref = (o: Obj, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: o.metadata.name,
    uid: o.metadata.uid,
    ...extra,
  });
  const patch = (name: string, body: unknown) =>
    call({
      method: 'PATCH',
      path: `${base}/${name}`,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
  return { create, get, exists, del, ref, patch };
}

describe('deletion propagation', () => {
  let t: TestApiServer;
  let h: ReturnType<typeof helpers>;
  before(async () => {
    t = await startTestControlPlane();
    h = helpers(t.call, 'default');
  });
  after(() => t.stop());

  it('Background (the default) deletes the owner at once and then its dependents', async () => {
    const owner = await h.create('bg-owner');
    await h.create('bg-dep', { ownerReferences: [h.ref(owner)] });
    assert.equal((await h.del('bg-owner')).status, 200);
    assert.equal(await h.exists('bg-owner'), false);
    await eventually(async () => !(await h.exists('bg-dep')), 'the dependent to go');
  });

  it('Orphan keeps the dependents and strips their reference to the owner', async () => {
    const owner = await h.create('or-owner');
    await h.create('or-dep', { ownerReferences: [h.ref(owner)] });
    const r = await h.del('or-owner', '?propagationPolicy=Orphan');
    assert.equal(r.status, 200, r.body);
    const pending = r.json() as Obj;
    assert.ok(pending.metadata.deletionTimestamp);
    assert.deepEqual(pending.metadata.finalizers, ['orphan']);
    await eventually(async () => !(await h.exists('or-owner')), 'the owner to go');
    const dep = (await h.get('or-dep')).json() as Obj;
    assert.equal(dep.metadata.ownerReferences, undefined);
  });

  it('Foreground waits for a blocking dependent, which its own finalizer holds', async () => {
    const owner = await h.create('fg-owner');
    await h.create('fg-dep', {
      ownerReferences: [h.ref(owner, { blockOwnerDeletion: true })],
      finalizers: ['example.com/hold'],
    });
    const r = await h.del('fg-owner', '?propagationPolicy=Foreground');
    assert.equal(r.status, 200, r.body);
    assert.deepEqual((r.json() as Obj).metadata.finalizers, ['foregroundDeletion']);
    await eventually(
      async () => ((await h.get('fg-dep')).json() as Obj).metadata.deletionTimestamp !== undefined,
      'the dependent to be deleted',
    );
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(await h.exists('fg-owner'), true, 'the owner waits for its blocking dependent');
    assert.equal((await h.patch('fg-dep', { metadata: { finalizers: null } })).status, 200);
    await eventually(async () => !(await h.exists('fg-dep')) && !(await h.exists('fg-owner')), 'both to go');
  });

  it('Foreground does not wait for dependents that do not block', async () => {
    const owner = await h.create('fg2-owner');
    await h.create('fg2-dep', { ownerReferences: [h.ref(owner)], finalizers: ['example.com/hold'] });
    await h.del('fg2-owner', '?propagationPolicy=Foreground');
    await eventually(async () => !(await h.exists('fg2-owner')), 'the owner to go');
    assert.ok(((await h.get('fg2-dep')).json() as Obj).metadata.deletionTimestamp);
    await h.patch('fg2-dep', { metadata: { finalizers: null } });
  });

  it('a dependent with another live owner only loses the reference to the gone one', async () => {
    const a = await h.create('two-a');
    const b = await h.create('two-b');
    await h.create('two-dep', { ownerReferences: [h.ref(a), h.ref(b)] });
    await h.del('two-a');
    await eventually(async () => {
      const refs = ((await h.get('two-dep')).json() as Obj).metadata.ownerReferences as { name: string }[];
      return refs.length === 1 && refs[0].name === 'two-b';
    }, 'the dangling reference to go');
  });

  it('a dependent whose owner never existed is collected', async () => {
    await h.create('orphaned', {
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-0000-0000-000000000001' },
      ],
    });
    await eventually(async () => !(await h.exists('orphaned')), 'the dependent of a missing owner to go');
  });

  it('an unknown propagationPolicy is 422 and deletes nothing', async () => {
    await h.create('kept');
    const r = await h.del('kept', '?propagationPolicy=Sideways');
    assert.equal(r.status, 422, r.body);
    assert.match(
      String(r.json().message),
      /^DeleteOptions\.meta\S* "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"$/,
    );
    assert.equal(await h.exists('kept'), true);
  });
});

describe('namespace deletion', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestControlPlane();
  });
  after(() => t.stop());

  it('empties a namespace of 500 objects, reports what holds it, and releases it when the last finalizer goes', async () => {
    const ns = 'doomed';
    assert.equal(
      (
        await t.call({
          method: 'POST',
          path: '/api/v1/namespaces',
          body: JSON.stringify({ metadata: { name: ns } }),
        })
      ).status,
      201,
    );
    const h = helpers(t.call, ns);
    for (let i = 0; i < 500; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => h.create(`cm-${i + j}`)));
    }
    await h.create('held', { finalizers: ['example.com/hold'] });
    const r = await t.call({ method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
    assert.equal(r.status, 200, r.body);
    assert.equal((r.json() as { status: { phase: string } }).status.phase, 'Terminating');

    type Ns = { status: { conditions?: { type: string; status: string; message: string }[] } };
    const condition = async (type: string) =>
      ((await t.call({ path: `/api/v1/namespaces/${ns}` })).json() as Ns).status.conditions?.find(
        (c) => c.type === type,
      );
    await eventually(
      async () => (await condition('NamespaceContentRemaining'))?.status === 'True',
      'the remaining-content condition',
      20_000,
    );
    assert.equal(
      (await condition('NamespaceContentRemaining'))?.message,
      'Some resources are remaining: configmaps. has 1 resource instances',
    );
    assert.equal(
      (await condition('NamespaceFinalizersRemaining'))?.message,
      'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    );
    assert.equal((await condition('NamespaceDeletionContentFailure'))?.status, 'False');
    type Managed = { metadata: { managedFields?: { manager: string; subresource?: string }[] } };
    const managers = ((await t.call({ path: `/api/v1/namespaces/${ns}` })).json() as Managed).metadata
      .managedFields;
    assert.ok(
      managers?.some(
        (m) => m.manager === componentName(SPEC, 'controller-manager') && m.subresource === 'status',
      ),
      `the deleter's status writes are recorded: ${JSON.stringify(managers)}`,
    );
    const list = (await t.call({ path: `/api/v1/namespaces/${ns}/configmaps` })).json() as { items: Obj[] };
    assert.deepEqual(
      list.items.map((i) => i.metadata.name),
      ['held'],
    );

    assert.equal((await h.patch('held', { metadata: { finalizers: null } })).status, 200);
    await eventually(
      async () => (await t.call({ path: `/api/v1/namespaces/${ns}` })).status === 404,
      'the namespace to go',
      20_000,
    );
  });
});
