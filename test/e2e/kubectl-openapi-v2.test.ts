// What stock kubectl does with /openapi/v2, which it reads only as gnostic protobuf and only as a
// fallback from v3: client-side validation of a kind the v3 documents do not have (an unknown kind,
// a v1 List) and `explain --output plaintext-openapiv2`. With the protobuf served, an unknown kind is
// reported as upstream reports it (`no matches for kind`) rather than as a failed download.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KUBECTLS, kubectl, startTestServer, type TestServer, writeTemp } from './lib/harness.ts';

const widget = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w1
`;

const list = (items: string) => `apiVersion: v1
kind: List
items:
${items}`;

const configMapItem = (name: string, extra = '') => `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: ${name}
    labels: {app: listed}
  data:
    k: v
${extra}`;

const deploymentItem = `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: listed-web
  spec:
    replicas: 2
    strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 25%}}
    selector: {matchLabels: {app: listed-web}}
    template:
      metadata: {labels: {app: listed-web}}
      spec:
        containers:
        - name: main
          image: nginx:1.27
          ports: [{containerPort: 80, protocol: TCP}]
          resources: {limits: {cpu: 500m, memory: 1Gi}, requests: {cpu: 250m}}
          readinessProbe: {httpGet: {port: 80, path: /}}
          env: [{name: A, value: "1"}]
`;

/** The -v=6 line of the /openapi/v2 fetch, in 1.32's and 1.35's log formats. */
const V2_FETCHED = /openapi\/v2\?timeout=\d+s"? (status=")?200 OK/;

for (const k of KUBECTLS) {
  describe(`${k.name}: /openapi/v2 in protobuf`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    before(async () => {
      ts = await startTestServer();
    });
    after(() => ts.stop());

    for (const verb of ['apply', 'create']) {
      it(`${verb} -f of an unknown kind: no matches for kind, after reading /openapi/v2`, async () => {
        const file = writeTemp(ts, `widget-${verb}.yaml`, widget);
        const r = await run(verb, '-f', file, '-v=6');
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, V2_FETCHED);
        assert.doesNotMatch(r.stderr, /failed to download openapi|unable to respond with a content type/);
        const quiet = await run(verb, '-f', file);
        assert.equal(
          quiet.stderr,
          `error: resource mapping not found for name: "w1" namespace: "" from "${file}": ` +
            'no matches for kind "Widget" in version "example.com/v1"\nensure CRDs are installed first\n',
        );
      });
    }

    it('a v1 List is validated against the v2 schemas: valid items are applied', async () => {
      const file = writeTemp(ts, 'list.yaml', list(configMapItem('listed') + deploymentItem));
      const r = await run('apply', '-f', file);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'configmap/listed created\ndeployment.apps/listed-web created\n');
    });

    it('a v1 List item with an unknown field fails client-side validation, as upstream words it', async () => {
      const file = writeTemp(ts, 'bad-list.yaml', list(configMapItem('listed-bad', '  bogus: 1\n')));
      const r = await run('apply', '-f', file);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        /^error: error validating ".*bad-list\.yaml": error validating data: ValidationError\(ConfigMap\): unknown field "bogus" in \S+\.core\.v1\.ConfigMap; if you choose to ignore these errors, turn validation off with --validate=false\n$/,
      );
      const absent = await run('get', 'configmap', 'listed-bad', '--ignore-not-found', '-o', 'name');
      assert.equal(absent.stdout, '');
    });

    it('explain --output plaintext-openapiv2 reads kinds and nested fields from v2', async () => {
      const cm = await run('explain', 'configmaps', '--output', 'plaintext-openapiv2');
      assert.equal(cm.code, 0, cm.stderr);
      assert.match(cm.stdout, /^KIND: +ConfigMap\nVERSION: +v1\n/);
      assert.match(cm.stdout, /binaryData\t<map\[string\]string>/);
      const ports = await run(
        'explain',
        'deployments.spec.template.spec.containers.ports',
        '--output',
        'plaintext-openapiv2',
      );
      assert.equal(ports.code, 0, ports.stderr);
      assert.match(ports.stdout, /RESOURCE: ports <\[\]Object>/);
      assert.match(ports.stdout, /containerPort\t<integer> -required-/);
    });

    it('explain from v3, the default, is unchanged', async () => {
      const r = await run('explain', 'configmaps.data');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /FIELD: +data <map\[string\]string>/);
    });
  });
}
