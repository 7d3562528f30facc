// Stock kubectl reading the ways it does by default: paged lists as Tables with the kind's columns,
// custom columns, watches, and a delete that waits (kubectl 1.35 waits through a streaming list).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  eventually,
  KUBECTLS,
  kubectl,
  kubectlStream,
  startTestServer,
  type TestServer,
  writeTemp,
} from './lib/harness.ts';

for (const k of KUBECTLS) {
  describe(`${k.name}: reads`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    before(async () => {
      ts = await startTestServer();
      const cm = (name: string, extra = '') =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${extra}data:\n  a: "1"\n  b: "2"\n`;
      assert.equal((await run('create', '-f', writeTemp(ts, 'one.yaml', cm('one')))).code, 0);
      assert.equal(
        (await run('create', '-f', writeTemp(ts, 'two.yaml', cm('two', '  labels:\n    tier: web\n')))).code,
        0,
      );
    });
    after(() => ts.stop());

    it('get shows the kind columns, paged through the cache', async () => {
      const r = await run('get', 'cm', '--chunk-size=1');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^NAME\s+DATA\s+AGE$/m);
      assert.match(r.stdout, /^one\s+2\s+\d+s$/m);
      assert.match(r.stdout, /^two\s+2\s+\d+s$/m);
    });

    it('custom columns and label columns', async () => {
      const custom = await run('get', 'cm', '-o', 'custom-columns=NAME:.metadata.name,KEYS:.data.a');
      assert.equal(custom.code, 0, custom.stderr);
      assert.match(custom.stdout, /^NAME\s+KEYS$/m);
      assert.match(custom.stdout, /^two\s+1$/m);
      const labels = await run('get', 'cm', '-L', 'tier', '-l', 'tier=web');
      assert.match(labels.stdout, /^NAME\s+DATA\s+AGE\s+TIER$/m);
      assert.match(labels.stdout, /^two\s+2\s+\d+s\s+web$/m);
      assert.doesNotMatch(labels.stdout, /^one/m);
    });

    it('delete waits for a finalizer to be released, then returns', async () => {
      const held = writeTemp(
        ts,
        'held.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  finalizers:\n  - example.com/hold\n',
      );
      assert.equal((await run('create', '-f', held)).code, 0);
      const deleting = kubectlStream(k.path, ts, ['delete', 'cm', 'held', '--timeout=30s']);
      try {
        await eventually(() => /deleted/.test(deleting.output()), 10_000, 'the delete to be accepted');
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(deleting.child.exitCode, null, 'still waiting while the finalizer holds');
        const released = await run(
          'patch',
          'cm',
          'held',
          '--type=merge',
          '-p',
          '{"metadata":{"finalizers":null}}',
        );
        assert.equal(released.code, 0, released.stderr);
        await eventually(() => deleting.child.exitCode !== null, 10_000, 'the delete to finish');
        assert.equal(deleting.child.exitCode, 0, deleting.output());
      } finally {
        deleting.child.kill();
      }
    });
  });
}
