// Stock kubectl (1.32 and 1.35) creating and reading RBAC objects against a server with default
// flags, as the admin (client certificate). `kubectl create role|clusterrole|rolebinding|
// clusterrolebinding` hard-code the upstream group name, which the spec profile serves as an alias;
// get, describe, patch and delete find the kinds through discovery, under the profile's group. Only
// the objects: what they allow is the authorizer's test.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rbacGroup } from '../../src/apis/rbac/types.ts';
import { namingProfile } from '../../src/naming/profile.ts';
import { KUBECTLS, kubectl, startTestServer, type TestServer } from './lib/harness.ts';

const UG = rbacGroup(namingProfile('upstream'));
const G = rbacGroup(namingProfile('spec'));

for (const k of KUBECTLS) {
  describe(`${k.name}: RBAC objects`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    const ok = async (...args: string[]) => {
      const r = await run(...args);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    before(async () => {
      ts = await startTestServer();
    });
    after(async () => {
      await ts.stop();
    });

    it('create role, and describe shows its rules', async () => {
      const out = await ok(
        'create',
        'role',
        'pod-reader',
        '--verb=get',
        '--verb=list',
        '--resource=configmaps',
        '-n',
        'default',
      );
      assert.match(out, /^role\.rbac\.authorization\.k8s\.io\/pod-reader created$/m);
      const role = JSON.parse(await ok('get', 'role', 'pod-reader', '-n', 'default', '-o', 'json')) as {
        apiVersion: string;
        rules: unknown[];
      };
      // kubectl get finds roles through discovery, which lists the profile's group.
      assert.equal(role.apiVersion, `${G}/v1`);
      assert.deepEqual(role.rules, [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]);
      const described = await ok('describe', 'role', 'pod-reader', '-n', 'default');
      // Discovery lists the profile's group, so kubectl describes the object with its generic
      // describer (upstream's RBAC describers are keyed on upstream's group).
      assert.match(described, /^Kind:\s+Role$/m);
      assert.ok(described.includes('  Resources:\n    configmaps\n  Verbs:\n    get\n    list\n'), described);
    });

    it('create clusterrole (rules and aggregation), get clusterroles as NAME / CREATED AT', async () => {
      await ok(
        'create',
        'clusterrole',
        'pod-viewer',
        '--verb=get,list,watch',
        '--resource=deployments,deployments/scale',
      );
      await ok('create', 'clusterrole', 'health', '--verb=get', '--non-resource-url=/healthz,/readyz/*');
      await ok('create', 'clusterrole', 'gathered', '--aggregation-rule=example.com/gather=true');
      const table = await ok('get', 'clusterroles');
      assert.match(table, /^NAME\s+CREATED AT$/m);
      assert.match(table, /^pod-viewer\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
      assert.match(table, /^gathered\s+/m);
      const health = JSON.parse(await ok('get', 'clusterrole', 'health', '-o', 'json')) as {
        rules: unknown[];
      };
      assert.deepEqual(health.rules, [{ nonResourceURLs: ['/healthz', '/readyz/*'], verbs: ['get'] }]);
      const gathered = JSON.parse(await ok('get', 'clusterrole', 'gathered', '-o', 'json')) as {
        aggregationRule: unknown;
      };
      assert.deepEqual(gathered.aggregationRule, {
        clusterRoleSelectors: [{ matchLabels: { 'example.com/gather': 'true' } }],
      });
      const described = await ok('describe', 'clusterrole', 'pod-viewer');
      assert.ok(
        described.includes(
          '  Resources:\n    deployments\n    deployments/scale\n  Verbs:\n    get\n    list\n    watch\n',
        ),
        described,
      );
    });

    it('create rolebinding to a ClusterRole; get shows ROLE and, wide, the subjects', async () => {
      await ok(
        'create',
        'rolebinding',
        'alice-admin',
        '--clusterrole=admin',
        '--user=alice',
        '--group=devs',
        '--serviceaccount=default:builder',
        '-n',
        'default',
      );
      const table = await ok('get', 'rolebindings', '-n', 'default');
      assert.match(table, /^NAME\s+ROLE\s+AGE$/m);
      assert.match(table, /^alice-admin\s+ClusterRole\/admin\s+\d+s$/m);
      const wide = await ok('get', 'rolebindings', '-n', 'default', '-o', 'wide');
      assert.match(wide, /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS$/m);
      assert.match(wide, /^alice-admin\s+ClusterRole\/admin\s+\d+s\s+alice\s+devs\s+default\/builder$/m);
      const described = await ok('describe', 'rolebinding', 'alice-admin', '-n', 'default');
      assert.ok(
        described.includes(
          `Role Ref:\n  API Group:  ${UG}\n  Kind:       ClusterRole\n  Name:       admin\n`,
        ),
        described,
      );
      assert.ok(
        described.includes('  Kind:       ServiceAccount\n  Name:       builder\n  Namespace:  default\n'),
        described,
      );
    });

    it('create clusterrolebinding; a changed roleRef is refused with upstream message', async () => {
      await ok('create', 'clusterrolebinding', 'devs-view', '--clusterrole=view', '--group=devs');
      const binding = JSON.parse(await ok('get', 'clusterrolebinding', 'devs-view', '-o', 'json')) as {
        roleRef: unknown;
        subjects: unknown;
      };
      assert.deepEqual(binding.roleRef, { apiGroup: UG, kind: 'ClusterRole', name: 'view' });
      assert.deepEqual(binding.subjects, [{ apiGroup: UG, kind: 'Group', name: 'devs' }]);
      const r = await run(
        'patch',
        'clusterrolebinding',
        'devs-view',
        '--type=merge',
        '-p',
        '{"roleRef":{"name":"edit"}}',
      );
      assert.notEqual(r.code, 0);
      assert.match(
        r.stderr,
        /The ClusterRoleBinding "devs-view" is invalid: roleRef: Invalid value: \{"APIGroup":"[^"]+","Kind":"ClusterRole","Name":"edit"\}: cannot change roleRef/,
      );
      const table = await ok('get', 'clusterrolebindings', 'devs-view');
      assert.match(table, /^devs-view\s+ClusterRole\/view\s+/m);
    });

    it('applies an upstream-named manifest, client-side and server-side', async () => {
      // Every existing manifest and chart names the upstream group; kubectl maps its kinds through
      // discovery, where the alias is advertised after the profile's group.
      const manifest = [
        `apiVersion: ${UG}/v1`,
        'kind: Role',
        'metadata:',
        '  name: applied',
        '  namespace: default',
        'rules:',
        '- apiGroups: [""]',
        '  resources: ["secrets"]',
        '  verbs: ["get"]',
        '',
      ].join('\n');
      const client = await kubectl(k.path, ts, ['apply', '-f', '-'], manifest);
      assert.equal(client.code, 0, client.stderr);
      assert.match(client.stdout, /role\.rbac\.authorization\.k8s\.io\/applied created/);
      const server = await kubectl(k.path, ts, ['apply', '--server-side', '-f', '-'], manifest);
      assert.equal(server.code, 0, server.stderr);
      assert.match(server.stdout, /role\.rbac\.authorization\.k8s\.io\/applied serverside-applied/);
      await ok('delete', 'role', 'applied', '-n', 'default');
    });

    it('deletes', async () => {
      await ok('delete', 'clusterrolebinding', 'devs-view');
      await ok('delete', 'rolebinding', 'alice-admin', '-n', 'default');
      await ok('delete', 'role', 'pod-reader', '-n', 'default');
      const r = await run('get', 'role', 'pod-reader', '-n', 'default');
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, new RegExp(`roles\\.${G.replaceAll('.', '\\.')} "pod-reader" not found`));
    });
  });
}
