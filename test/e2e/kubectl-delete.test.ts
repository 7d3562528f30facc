// Stock kubectl deleting the ways users do: server-side dry run, cascading foreground and orphan
// deletes over ownerReferences, and deleting a namespace with content.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KUBECTLS, kubectl, startTestServer, type TestServer, writeTemp } from './lib/harness.ts';

const cm = (name: string, extra = '') => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
${extra}data:
  k: v
`;

for (const k of KUBECTLS) {
  describe(`${k.name}: deleting`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    /** Creates an owner and a dependent that names it, and answers the owner's uid. */
    const family = async (owner: string, dependent: string, block: boolean) => {
      assert.equal((await run('create', '-f', writeTemp(ts, `${owner}.yaml`, cm(owner)))).code, 0);
      const uid = (await run('get', 'cm', owner, '-o', 'jsonpath={.metadata.uid}')).stdout;
      const refs = `  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: ${owner}\n    uid: ${uid}\n    blockOwnerDeletion: ${block}\n`;
      const r = await run('create', '-f', writeTemp(ts, `${dependent}.yaml`, cm(dependent, refs)));
      assert.equal(r.code, 0, r.stderr);
    };

    before(async () => {
      ts = await startTestServer();
    });
    after(() => ts.stop());

    it('create --dry-run=server answers like a create and stores nothing', async () => {
      const r = await run('create', '-f', writeTemp(ts, 'dry.yaml', cm('dry')), '--dry-run=server');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'configmap/dry created (server dry run)');
      const got = await run('get', 'cm', 'dry');
      assert.notEqual(got.code, 0);
      assert.match(got.stderr, /configmaps "dry" not found/);
    });

    it('delete --cascade=foreground removes the dependents first, then the owner', async () => {
      await family('fg-owner', 'fg-dep', true);
      const r = await run('delete', 'cm', 'fg-owner', '--cascade=foreground');
      assert.equal(r.code, 0, r.stderr);
      // 1.35 names the namespace it deleted from.
      assert.match(r.stdout.trim(), /^configmap "fg-owner" deleted( from default namespace)?$/);
      const left = await run('get', 'cm', 'fg-owner', 'fg-dep', '--ignore-not-found', '-o', 'name');
      assert.equal(left.stdout.trim(), '');
    });

    it('delete --cascade=orphan keeps the dependent without its owner reference', async () => {
      await family('or-owner', 'or-dep', false);
      const r = await run('delete', 'cm', 'or-owner', '--cascade=orphan');
      assert.equal(r.code, 0, r.stderr);
      const refs = await run('get', 'cm', 'or-dep', '-o', 'jsonpath={.metadata.ownerReferences}');
      assert.equal(refs.code, 0, refs.stderr);
      assert.equal(refs.stdout, '');
      assert.notEqual((await run('get', 'cm', 'or-owner')).code, 0);
    });

    it('delete ns empties the namespace and waits until it is gone', async () => {
      const ns = `gone-${k.name.replace(/\D/g, '')}`;
      assert.equal(
        (
          await run(
            'create',
            '-f',
            writeTemp(ts, 'ns.yaml', `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`),
          )
        ).code,
        0,
      );
      for (const name of ['a', 'b', 'c']) {
        assert.equal((await run('create', '-n', ns, '-f', writeTemp(ts, `${name}.yaml`, cm(name)))).code, 0);
      }
      const r = await run('delete', 'ns', ns, '--timeout=30s');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), `namespace "${ns}" deleted`);
      const got = await run('get', 'ns', ns);
      assert.match(got.stderr, new RegExp(`namespaces "${ns}" not found`));
    });
  });
}
