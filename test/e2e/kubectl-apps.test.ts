// Stock kubectl with the apps group: Deployments from a file, `get all`, scale, explain.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KUBECTLS, kubectl, startTestServer, type TestServer, waitUntil, writeTemp } from './lib/harness.ts';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
`;

for (const k of KUBECTLS) {
  describe(`${k.name}: apps`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    before(async () => {
      ts = await startTestServer();
      const r = await run('create', '-f', writeTemp(ts, 'deploy.yaml', DEPLOYMENT));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'deployment.apps/web created');
    });
    after(() => ts.stop());

    it('get deploy -o yaml shows the defaults', async () => {
      const r = await run('get', 'deploy', 'web', '-o', 'yaml');
      assert.equal(r.code, 0, r.stderr);
      for (const line of [
        /^ {2}progressDeadlineSeconds: 600$/m,
        /^ {2}replicas: 1$/m,
        /^ {2}revisionHistoryLimit: 10$/m,
        /^ {6}maxSurge: 25%$/m,
        /^ {4}type: RollingUpdate$/m,
        /^ {8}imagePullPolicy: IfNotPresent$/m,
        /^ {10}protocol: TCP$/m,
        /^ {6}dnsPolicy: ClusterFirst$/m,
        /^ {6}terminationGracePeriodSeconds: 30$/m,
      ]) {
        assert.match(r.stdout, line);
      }
    });

    it('get all -A lists the deployment, its replica set and its pending pod (no nodes here)', async () => {
      // The deployment controller creates the replica set and counts its pod as up to date.
      let r = await run('get', 'all', '-A');
      await waitUntil(async () => {
        r = await run('get', 'all', '-A');
        return /^default\s+deployment\.apps\/web\s+0\/1\s+1\s+0\s+\d+s$/m.test(r.stdout);
      }, 'the deployment counted one up-to-date replica');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^NAMESPACE\s+NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/m);
      assert.match(r.stdout, /^default\s+replicaset\.apps\/web-[a-z0-9]+\s+1\s+1\s+0\s+\d+s$/m);
      assert.match(r.stdout, /^default\s+pod\/web-[a-z0-9]+-[a-z0-9]{5}\s+0\/1\s+Pending\s+0\s+\d+s$/m);
    });

    it('scale changes spec.replicas through the scale sub-resource', async () => {
      const r = await run('scale', 'deployment', 'web', '--replicas=3');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /deployment\.apps\/web scaled/);
      const replicas = await run('get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}');
      assert.equal(replicas.stdout, '3');
    });

    it('explain reads the pod template from OpenAPI', async () => {
      const r = await run('explain', 'deployment.spec.template.spec.containers.ports');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /containerPort\s+<integer> -required-/);
      assert.match(r.stdout, /protocol\s+<string>/);
    });

    it('a pod template that is wrong is refused with field paths', async () => {
      const bad = DEPLOYMENT.replace('name: web\n  labels', 'name: bad\n  labels').replace(
        '- name: nginx\n',
        '- name: Bad_Name\n',
      );
      const r = await run('create', '-f', writeTemp(ts, 'bad.yaml', bad));
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /spec\.template\.spec\.containers\[0\]\.name: Invalid value: "Bad_Name"/);
    });
  });
}
