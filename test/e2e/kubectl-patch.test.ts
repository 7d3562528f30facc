// Stock kubectl changing objects the ways users do: the three patch types, label and annotate
// (strategic merge patches), and client-side apply twice with a change (three-way strategic merge
// from the last-applied annotation and the OpenAPI document).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KUBECTLS, kubectl, startTestServer, type TestServer, writeTemp } from './lib/harness.ts';
import { deploymentYaml } from './lib/manifests.ts';

const deployment = (image: string, replicas: number, extraContainer = '') =>
  deploymentYaml('applied', image, replicas, extraContainer);

for (const k of KUBECTLS) {
  describe(`${k.name}: patching`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    const jsonpath = async (what: string, path: string) =>
      (await run('get', what, '-o', `jsonpath=${path}`)).stdout;
    before(async () => {
      ts = await startTestServer();
      const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: p\ndata:\n  a: "1"\n';
      assert.equal((await run('create', '-f', writeTemp(ts, 'p.yaml', cm))).code, 0);
    });
    after(() => ts.stop());

    it('patch --type=merge, --type=json and --type=strategic', async () => {
      let r = await run('patch', 'cm', 'p', '--type=merge', '-p', '{"data":{"b":"2"}}');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /configmap\/p patched/);
      r = await run(
        'patch',
        'cm',
        'p',
        '--type=json',
        '-p',
        '[{"op":"remove","path":"/data/a"},{"op":"add","path":"/data/c","value":"3"}]',
      );
      assert.equal(r.code, 0, r.stderr);
      r = await run('patch', 'cm', 'p', '--type=strategic', '-p', '{"data":{"d":"4"}}');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await jsonpath('cm/p', '{.data}'), '{"b":"2","c":"3","d":"4"}');
      const failed = await run(
        'patch',
        'cm',
        'p',
        '--type=json',
        '-p',
        '[{"op":"test","path":"/data/b","value":"9"}]',
      );
      assert.notEqual(failed.code, 0);
      assert.match(failed.stderr, /The request is invalid/);
    });

    it('label and annotate', async () => {
      assert.equal((await run('label', 'cm', 'p', 'tier=web')).code, 0);
      assert.equal((await run('annotate', 'cm', 'p', 'note=hello')).code, 0);
      assert.equal(await jsonpath('cm/p', '{.metadata.labels.tier}'), 'web');
      assert.equal(await jsonpath('cm/p', '{.metadata.annotations.note}'), 'hello');
      assert.equal((await run('label', 'cm', 'p', 'tier-')).code, 0);
      assert.equal(await jsonpath('cm/p', '{.metadata.labels}'), '');
    });

    it('apply -f twice with a change merges by container name', async () => {
      let r = await run('apply', '-f', writeTemp(ts, 'd1.yaml', deployment('nginx:1.26', 1)));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'deployment.apps/applied created');
      // A field set by someone else survives the next apply: apply patches, it does not replace.
      assert.equal(
        (
          await run(
            'patch',
            'deploy',
            'applied',
            '--type=strategic',
            '-p',
            '{"spec":{"template":{"spec":{"containers":[{"name":"main","env":[{"name":"X","value":"1"}]}]}}}}',
          )
        ).code,
        0,
      );
      const sidecar = '      - name: sidecar\n        image: busybox\n';
      r = await run('apply', '-f', writeTemp(ts, 'd2.yaml', deployment('nginx:1.27', 2, sidecar)));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'deployment.apps/applied configured');
      assert.equal(await jsonpath('deploy/applied', '{.spec.replicas}'), '2');
      assert.equal(
        await jsonpath('deploy/applied', '{.spec.template.spec.containers[*].name}'),
        'main sidecar',
      );
      assert.equal(
        await jsonpath('deploy/applied', '{.spec.template.spec.containers[0].image}'),
        'nginx:1.27',
      );
      assert.equal(await jsonpath('deploy/applied', '{.spec.template.spec.containers[0].env[0].name}'), 'X');
      // Removing the sidecar from the file removes it from the object.
      r = await run('apply', '-f', writeTemp(ts, 'd3.yaml', deployment('nginx:1.27', 2)));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await jsonpath('deploy/applied', '{.spec.template.spec.containers[*].name}'), 'main');
    });
  });
}
