// Stock kubectl 1.32 and 1.35 against the server: the commands a user starts with.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { componentName, namingProfile } from '../../src/naming/profile.ts';
import {
  eventually,
  KUBECTLS,
  kubectl,
  kubectlStream,
  startTestServer,
  type TestServer,
  writeTemp,
} from './lib/harness.ts';

const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
  labels:
    app: demo
data:
  greeting: hello
`;

for (const k of KUBECTLS) {
  describe(k.name, () => {
    let ts: TestServer;
    before(async () => {
      ts = await startTestServer();
    });
    after(() => ts.stop());

    it('version shows client and server', async () => {
      const r = await kubectl(k.path, ts, ['version', '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const v = JSON.parse(r.stdout);
      assert.equal(v.serverVersion.major, '1');
      assert.match(v.serverVersion.gitVersion, /^v\d+\.\d+\.\d+/);
    });

    it('api-resources lists the served kinds', async () => {
      const r = await kubectl(k.path, ts, ['api-resources']);
      assert.equal(r.code, 0, r.stderr);
      for (const line of [
        /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m,
        /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m,
      ]) {
        assert.match(r.stdout, line);
      }
      assert.match(r.stdout, /^leases\s+coordination\.\S+\/v1\s+true\s+Lease$/m);
    });

    it('get ns shows the system namespaces as Active', async () => {
      const r = await kubectl(k.path, ts, ['get', 'ns']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^NAME\s+STATUS\s+AGE$/m);
      assert.match(r.stdout, /^default\s+Active\s+\d+s$/m);
      assert.match(r.stdout, new RegExp(`^${componentName(namingProfile('spec'), 'system')}\\s+Active`, 'm'));
    });

    it('create -f with default validation, get -o yaml, get -w sees a change, delete', async () => {
      const file = writeTemp(ts, 'cm.yaml', CONFIGMAP);
      const created = await kubectl(k.path, ts, ['create', '-f', file]);
      assert.equal(created.code, 0, created.stderr);
      assert.equal(created.stdout.trim(), 'configmap/app-config created');

      const got = await kubectl(k.path, ts, ['get', 'cm', 'app-config', '-o', 'yaml']);
      assert.equal(got.code, 0, got.stderr);
      assert.match(got.stdout, /^ {2}greeting: hello$/m);
      assert.match(got.stdout, /^ {2}namespace: default$/m);
      assert.match(got.stdout, /^ {2}resourceVersion: "\d+"$/m);

      const watch = kubectlStream(k.path, ts, ['get', 'cm', '-w']);
      try {
        await eventually(() => /app-config/.test(watch.output()), 10_000, 'the initial listing');
        const patched = writeTemp(
          ts,
          'cm2.yaml',
          CONFIGMAP.replace('greeting: hello', 'greeting: hello\n  more: x'),
        );
        const replaced = await kubectl(k.path, ts, ['replace', '-f', patched]);
        assert.equal(replaced.code, 0, replaced.stderr);
        await eventually(
          () => /app-config\s+2\s/.test(watch.output()),
          10_000,
          `the watch to show two data keys, saw: ${watch.output()}`,
        );
      } finally {
        watch.child.kill();
      }

      const deleted = await kubectl(k.path, ts, ['delete', 'cm', 'app-config']);
      assert.equal(deleted.code, 0, deleted.stderr);
      // kubectl 1.35 names the namespace in its message; 1.32 does not.
      assert.match(deleted.stdout.trim(), /^configmap "app-config" deleted( from default namespace)?$/);
      const gone = await kubectl(k.path, ts, ['get', 'cm', 'app-config']);
      assert.notEqual(gone.code, 0);
      assert.match(gone.stderr, /Error from server \(NotFound\): configmaps "app-config" not found/);
    });

    it('create rejects an unknown field under default (strict) validation', async () => {
      const file = writeTemp(ts, 'bad.yaml', CONFIGMAP.replace('\ndata:', '\nbogus: 1\ndata:'));
      const r = await kubectl(k.path, ts, ['create', '-f', file]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /unknown field "bogus"/);
    });

    it('explain configmap.data prints the field documentation', async () => {
      const r = await kubectl(k.path, ts, ['explain', 'configmap.data']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /KIND:\s+ConfigMap/);
      assert.match(r.stdout, /FIELD:\s+data/);
    });
  });
}
