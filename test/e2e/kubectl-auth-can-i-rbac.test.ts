// A namespace admin through RBAC, with stock kubectl 1.32 and 1.35: the admin binds the default
// `admin` ClusterRole to alice in one namespace (`kubectl create rolebinding`), then acts as alice
// (`--as`) and as jane, a real credential bound the same way. `auth can-i` answers yes and no
// (exit 1) as upstream does, `--list` lists the bound rules, and refused requests carry upstream's
// 403 messages. The RBAC index follows the bindings through a watch: the test waits for the grant
// to show, never for a fixed time.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { KUBECTLS, kubectl, startTestServer, type TestServer, waitFor, writeTemp } from './lib/harness.ts';

const TOKEN = 'rbac-can-i-token-0123456789';

for (const k of KUBECTLS) {
  describe(`${k.name}: a namespace admin through RBAC`, () => {
    let ts: TestServer;
    let jane: string;
    const tokens = mkdtempSync(join(tmpdir(), 'rbac-can-i-tokens-'));
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    before(async () => {
      writeFileSync(join(tokens, 'tokens.csv'), `${TOKEN},jane,43\n`);
      ts = await startTestServer({ tokenAuthFile: join(tokens, 'tokens.csv'), authorizationModes: ['RBAC'] });
      const admin = parseYaml(ts.server.adminConfig) as { users: { name: string; user: unknown }[] };
      admin.users = admin.users.map((u) => ({ name: u.name, user: { token: TOKEN } }));
      jane = writeTemp(ts, 'jane.config', toYaml(admin));
      for (const args of [
        ['create', 'namespace', 'team'],
        ['create', 'rolebinding', 'alice-admin', '--clusterrole=admin', '--user=alice', '-n', 'team'],
        ['create', 'rolebinding', 'jane-admin', '--clusterrole=admin', '--user=jane', '-n', 'team'],
      ]) {
        const r = await run(...args);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      }
      const ready = await waitFor(
        () => run('auth', 'can-i', 'get', 'pods', '--as', 'alice', '-n', 'team'),
        (r) => r.stdout.trim() === 'yes',
        'RBAC to see the bindings',
        { settle: true },
      );
      assert.equal(ready.stdout.trim(), 'yes', ready.stderr);
    });
    after(async () => {
      await ts.stop();
      rmSync(tokens, { recursive: true, force: true });
    });

    it('can-i: yes in the namespace, no elsewhere (exit 1)', async () => {
      for (const [args, answer] of [
        [['create', 'deployments.apps'], 'yes'],
        [['create', 'rolebindings'], 'yes'],
        [['impersonate', 'serviceaccounts'], 'yes'],
        [['create', 'roles', '-n', 'default'], 'no'],
        [['get', 'pods', '-n', 'default'], 'no'],
        [['get', 'nodes'], 'no'],
        [['create', 'namespaces'], 'no'],
      ] as [string[], string][]) {
        const r = await run(
          'auth',
          'can-i',
          ...args,
          '--as',
          'alice',
          ...(args.includes('-n') ? [] : ['-n', 'team']),
        );
        assert.equal(r.stdout.trim(), answer, `${args.join(' ')}: ${r.stdout} ${r.stderr}`);
        assert.equal(r.code, answer === 'yes' ? 0 : 1, `${args.join(' ')}: exit code`);
      }
    });

    it('acting as alice: allowed in the namespace, upstream 403 outside it', async () => {
      const made = await run(
        'create',
        'configmap',
        'cfg',
        '--from-literal=a=b',
        '-n',
        'team',
        '--as',
        'alice',
      );
      assert.equal(made.code, 0, made.stderr);
      const listed = await run('get', 'configmaps', 'cfg', '-n', 'team', '--as', 'alice', '-o', 'name');
      assert.equal(listed.stdout.trim(), 'configmap/cfg', listed.stderr);
      const other = await run('get', 'configmaps', '-n', 'default', '--as', 'alice');
      assert.notEqual(other.code, 0);
      assert.match(
        other.stderr,
        /Error from server \(Forbidden\): configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"/,
      );
      const ns = await run('delete', 'namespace', 'team', '--as', 'alice');
      assert.notEqual(ns.code, 0);
      assert.match(
        ns.stderr,
        /namespaces "team" is forbidden: User "alice" cannot delete resource "namespaces" in API group "" in the namespace "team"/,
      );
    });

    it('a real credential bound the same way: jane', async () => {
      const r = await run('--kubeconfig', jane, 'get', 'configmaps', 'cfg', '-n', 'team', '-o', 'name');
      assert.equal(r.code, 0, r.stderr);
      const yes = await run('--kubeconfig', jane, 'auth', 'can-i', 'delete', 'secrets', '-n', 'team');
      assert.equal(yes.stdout.trim(), 'yes', yes.stderr);
      const no = await run('--kubeconfig', jane, 'auth', 'can-i', 'list', 'secrets', '-n', 'default');
      assert.equal(no.stdout.trim(), 'no', no.stderr);
      assert.equal(no.code, 1);
      // jane may impersonate the service accounts of the namespace (admin grants it), nobody else.
      const as = await run(
        '--kubeconfig',
        jane,
        'get',
        '--raw',
        '/api/v1/namespaces/team/configmaps',
        '--as',
        'bob',
      );
      assert.notEqual(as.code, 0);
      assert.match(
        as.stderr,
        /users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope/,
      );
    });

    it('can-i --list as alice in the namespace', async () => {
      const r = await run('auth', 'can-i', '--list', '--as', 'alice', '-n', 'team');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
      // From the admin role through the binding, and from the cluster-wide basic roles.
      assert.match(r.stdout, /^pods\s+\[\]\s+\[\]\s+\[.*\bcreate\b.*\bdelete\b.*\]$/m);
      assert.match(
        r.stdout,
        /^rolebindings\.rbac\.authorization\.[a-z.]+\s+\[\]\s+\[\]\s+\[.*\bcreate\b.*\]$/m,
      );
      assert.match(
        r.stdout,
        /^selfsubjectaccessreviews\.authorization\.[a-z.]+\s+\[\]\s+\[\]\s+\[create\]$/m,
      );
      assert.match(r.stdout, /^\s+\[\/healthz\]\s+\[\]\s+\[get\]$/m);
      const elsewhere = await run('auth', 'can-i', '--list', '--as', 'alice', '-n', 'default');
      assert.equal(elsewhere.code, 0, elsewhere.stderr);
      assert.doesNotMatch(elsewhere.stdout, /^pods\s/m);
    });
  });
}
