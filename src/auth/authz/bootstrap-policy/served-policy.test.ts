// The default policy through a running server: present after the first start under the profile's
// names (and readable through upstream's alias group), a removed rule back after a restart, an
// object annotated autoupdate "false" left alone, and a second start writing nothing.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { namingProfile } from '../../../naming/profile.ts';
import { startServer } from '../../../server/server.ts';
import { type Caller, client } from '../../../server/testing/http-client.ts';
import { policyNames } from './names.ts';
import { defaultPolicy } from './policy.ts';

const profile = namingProfile('spec');
const n = policyNames(profile);
const G = n.rbacGroup;

interface Role {
  metadata: { name: string; resourceVersion: string; annotations?: Record<string, string> };
  rules: { verbs: string[]; resources?: string[]; nonResourceURLs?: string[] }[];
}

describe('default RBAC policy on a server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bootstrap-policy-'));
  let stop: (() => Promise<void>) | undefined;
  let call: Caller;

  const start = async () => {
    const server = await startServer({ dataDir: dir, securePort: 0 });
    await server.ready;
    stop = () => server.stop();
    call = client(server, dir);
  };
  const restart = async () => {
    await stop?.();
    await start();
  };
  const list = async (path: string) => {
    const r = await call({ path: `/apis/${G}/v1/${path}` });
    assert.equal(r.status, 200, r.body);
    return (r.json() as { items: unknown[] }).items as {
      metadata: { name: string; namespace?: string; resourceVersion: string };
    }[];
  };

  before(start);
  after(async () => {
    await stop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves every default object after the first start, labelled as defaults', async () => {
    const p = defaultPolicy(profile);
    const roles = new Set((await list('clusterroles')).map((o) => o.metadata.name));
    for (const r of p.clusterRoles) assert.ok(roles.has(r.metadata.name), r.metadata.name);
    const bindings = new Set((await list('clusterrolebindings')).map((o) => o.metadata.name));
    for (const b of p.clusterRoleBindings) assert.ok(bindings.has(b.metadata.name), b.metadata.name);
    const nsRoles = new Set((await list('roles')).map((o) => `${o.metadata.namespace}/${o.metadata.name}`));
    for (const r of p.roles) assert.ok(nsRoles.has(`${r.metadata.namespace}/${r.metadata.name}`));
    const sel = await call({
      path: `/apis/${G}/v1/clusterroles?labelSelector=${encodeURIComponent(`${n.bootstrappingLabel}=rbac-defaults`)}`,
    });
    assert.equal((sel.json() as { items: unknown[] }).items.length, p.clusterRoles.length);
    const admin = await call({ path: `/apis/${G}/v1/clusterroles/cluster-admin` });
    assert.deepEqual((admin.json() as unknown as Role).rules, [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ]);
  });

  it('a second start writes nothing: every resourceVersion unchanged', async () => {
    const before = JSON.stringify(
      await Promise.all(['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'].map(list)),
    );
    await restart();
    const afterRestart = JSON.stringify(
      await Promise.all(['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'].map(list)),
    );
    assert.equal(afterRestart, before);
  });

  it('re-adds a removed rule at the next start, and leaves autoupdate "false" alone', async () => {
    const path = (name: string) => `/apis/${G}/v1/clusterroles/${encodeURIComponent(name)}`;
    const get = async (name: string) => (await call({ path: path(name) })).json() as unknown as Role;
    const put = async (obj: unknown, name: string) => {
      const r = await call({ method: 'PUT', path: path(name), body: JSON.stringify(obj) });
      assert.equal(r.status, 200, r.body);
      return r.json() as unknown as Role;
    };
    const basic = await get('system:basic-user');
    const extra = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] };
    await put({ ...basic, rules: [extra] }, 'system:basic-user');
    const mon = await get('system:monitoring');
    const protectedMon = await put(
      {
        ...mon,
        metadata: { ...mon.metadata, annotations: { [n.autoupdateAnnotation]: 'false' } },
        rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }],
      },
      'system:monitoring',
    );
    await restart();
    const basicAfter = await get('system:basic-user');
    assert.deepEqual(basicAfter.rules[0], extra);
    const grants = basicAfter.rules.flatMap((r) =>
      (r.resources ?? []).map((res) => `${r.verbs.join()}:${res}`),
    );
    assert.ok(grants.includes('create:selfsubjectaccessreviews'));
    assert.ok(grants.includes('create:selfsubjectreviews'));
    const monAfter = await get('system:monitoring');
    assert.equal(monAfter.metadata.resourceVersion, protectedMon.metadata.resourceVersion);
    assert.deepEqual(monAfter.rules, [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }]);
  });
});
