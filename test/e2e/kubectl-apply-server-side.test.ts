// Stock kubectl's server-side apply: create and update of ConfigMaps and Deployments, a conflict
// between two field managers as kubectl prints it, --force-conflicts, and the migration of an
// object first applied client-side (last-applied annotation) to server-side apply.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KUBECTLS, kubectl, startTestServer, type TestServer, writeTemp } from './lib/harness.ts';
import { deploymentYaml } from './lib/manifests.ts';

const configMap = (value: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ssa
data:
  key: "${value}"
`;

const deployment = deploymentYaml;

for (const k of KUBECTLS) {
  describe(`${k.name}: apply --server-side`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    const file = (name: string, text: string) => writeTemp(ts, name, text);
    const jsonpath = async (what: string, path: string) =>
      (await run('get', what, '-o', `jsonpath=${path}`)).stdout;
    before(async () => {
      ts = await startTestServer();
    });
    after(() => ts.stop());

    it('creates, updates, conflicts with another manager, and forces', async () => {
      let r = await run('apply', '--server-side', '-f', file('cm1.yaml', configMap('a')));
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /configmap\/ssa serverside-applied/);
      assert.equal(await jsonpath('cm/ssa', '{.metadata.managedFields[0].manager}'), 'kubectl');
      assert.equal(await jsonpath('cm/ssa', '{.metadata.managedFields[0].operation}'), 'Apply');

      r = await run('apply', '--server-side', '-f', file('cm2.yaml', configMap('b')));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await jsonpath('cm/ssa', '{.data.key}'), 'b');

      r = await run(
        'apply',
        '--server-side',
        '--field-manager=intruder',
        '-f',
        file('cm3.yaml', configMap('c')),
      );
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Apply failed with 1 conflict: conflict with "kubectl": \.data\.key/);
      assert.match(r.stderr, /--force-conflicts/, 'kubectl explains how to resolve the conflict');
      assert.equal(await jsonpath('cm/ssa', '{.data.key}'), 'b');

      r = await run(
        'apply',
        '--server-side',
        '--force-conflicts',
        '--field-manager=intruder',
        '-f',
        file('cm4.yaml', configMap('c')),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await jsonpath('cm/ssa', '{.data.key}'), 'c');
      assert.equal(await jsonpath('cm/ssa', '{.metadata.managedFields[*].manager}'), 'intruder');
    });

    it('applies a Deployment and changes one container field', async () => {
      let r = await run('apply', '--server-side', '-f', file('d1.yaml', deployment('web', 'nginx:1', 2)));
      assert.equal(r.code, 0, r.stderr);
      r = await run('apply', '--server-side', '-f', file('d2.yaml', deployment('web', 'nginx:2', 2)));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await jsonpath('deploy/web', '{.spec.template.spec.containers[0].image}'), 'nginx:2');
      r = await run('scale', 'deploy/web', '--replicas=5');
      assert.equal(r.code, 0, r.stderr);
      r = await run('apply', '--server-side', '-f', file('d3.yaml', deployment('web', 'nginx:2', 3)));
      assert.notEqual(r.code, 0, 'replicas now belong to the scaler');
      assert.match(
        r.stderr,
        /conflict with "[^"]+" with subresource "scale" using apps\/v1: \.spec\.replicas/,
      );
    });

    it('takes over an object first applied client-side', async () => {
      let r = await run('apply', '-f', file('c1.yaml', deployment('migrated', 'nginx:1', 1)));
      assert.equal(r.code, 0, r.stderr);
      r = await run('apply', '--server-side', '-f', file('c2.yaml', deployment('migrated', 'nginx:2', 1)));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await jsonpath('deploy/migrated', '{.spec.template.spec.containers[0].image}'), 'nginx:2');
      const lastApplied = await jsonpath(
        'deploy/migrated',
        '{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}',
      );
      assert.match(lastApplied, /nginx:2/, 'the annotation follows the server-side configuration');
      // Back to client-side apply: the annotation lets kubectl compute the right patch.
      r = await run('apply', '-f', file('c3.yaml', deployment('migrated', 'nginx:3', 1)));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await jsonpath('deploy/migrated', '{.spec.template.spec.containers[0].image}'), 'nginx:3');
    });
  });
}
