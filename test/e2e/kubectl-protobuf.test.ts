// Stock kubectl's `create` commands, which send their bodies in protobuf (Content-Type the upstream
// protobuf media type, Accept protobuf then JSON); the stored objects are read back in JSON.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UPSTREAM_ALIASES } from '../../src/naming/profile.ts';
import { client } from '../../src/server/testing/http-client.ts';
import { KUBECTLS, kubectl, startTestServer, type TestServer } from './lib/harness.ts';

for (const k of KUBECTLS.filter((x) => x.name === 'kubectl 1.35')) {
  describe(`${k.name}: create sends protobuf`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    const read = async (path: string) => {
      const r = await client(ts.server, ts.dir)({ path });
      assert.equal(r.status, 200, r.body);
      return r.json() as Record<string, Record<string, unknown>>;
    };
    before(async () => {
      ts = await startTestServer();
    });
    after(() => ts.stop());

    it('create configmap --from-literal', async () => {
      const r = await run(
        'create',
        'configmap',
        'settings',
        '--from-literal=a=1',
        '--from-literal=b=two',
        '-v=8',
      );
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stderr.includes(`Content-Type: ${UPSTREAM_ALIASES.protobufMediaType}`), r.stderr);
      assert.equal(r.stdout.trim(), 'configmap/settings created');
      const cm = await read('/api/v1/namespaces/default/configmaps/settings');
      assert.deepEqual(cm.data, { a: '1', b: 'two' });
    });

    it('create secret generic', async () => {
      const r = await run('create', 'secret', 'generic', 'creds', '--from-literal=password=s3cret');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'secret/creds created');
      const s = await read('/api/v1/namespaces/default/secrets/creds');
      assert.equal(s.type as unknown, 'Opaque');
      assert.deepEqual(s.data, { password: Buffer.from('s3cret').toString('base64') });
    });

    it('create namespace', async () => {
      const r = await run('create', 'namespace', 'team-a');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'namespace/team-a created');
      const ns = await read('/api/v1/namespaces/team-a');
      assert.equal(ns.status.phase, 'Active');
    });

    it('create deployment --image', async () => {
      const r = await run('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'deployment.apps/web created');
      const d = await read('/apis/apps/v1/namespaces/default/deployments/web');
      const spec = d.spec as {
        replicas: number;
        selector: unknown;
        template: { spec: { containers: { name: string; image: string }[] } };
      };
      assert.equal(spec.replicas, 2);
      assert.deepEqual(spec.selector, { matchLabels: { app: 'web' } });
      assert.equal(spec.template.spec.containers[0].image, 'nginx:1.27');
      assert.equal(spec.template.spec.containers[0].name, 'nginx');
    });

    it('kubectl reads the created object back', async () => {
      const r = await run('get', 'configmap', 'settings', '-o', 'jsonpath={.data.b}');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'two');
    });
  });
}
