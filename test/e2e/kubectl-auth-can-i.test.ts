// Stock `kubectl auth can-i` (1.32 and 1.35): kubectl posts a SelfSubjectAccessReview (or, with
// --list, a SelfSubjectRulesReview) to the upstream-named authorization group, served as an alias
// under the spec profile; `--as` goes through the impersonation filter. Here under AlwaysAllow and
// AlwaysDeny (where only system:masters may do anything), with a static-token user who is not
// privileged; kubectl-auth-can-i-rbac.test.ts has the RBAC scenario.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { groupName, namingProfile } from '../../src/naming/profile.ts';
import { KUBECTLS, kubectl, startTestServer, type TestServer, writeTemp } from './lib/harness.ts';

const UPSTREAM_AUTHZ = groupName(namingProfile('upstream'), 'authorization');
// `kubectl create -f` maps kinds through discovery, which shows only the server's own group names.
const SERVED_AUTHZ = groupName(namingProfile('spec'), 'authorization');
const TOKEN = 'can-i-token-0123456789';

function tokenConfigOf(ts: TestServer): string {
  const admin = parseYaml(ts.server.adminConfig) as {
    users: { name: string; user: Record<string, unknown> }[];
  };
  admin.users = admin.users.map((u) => ({ name: u.name, user: { token: TOKEN } }));
  return writeTemp(ts, 'token.config', toYaml(admin));
}

for (const k of KUBECTLS) {
  for (const mode of ['AlwaysAllow', 'AlwaysDeny'] as const) {
    describe(`${k.name}: auth can-i (${mode})`, () => {
      let ts: TestServer;
      let jane: string;
      const tokens = mkdtempSync(join(tmpdir(), 'can-i-tokens-'));
      const run = (...args: string[]) => kubectl(k.path, ts, args);
      before(async () => {
        writeFileSync(join(tokens, 'tokens.csv'), `${TOKEN},jane,42,dev\n`);
        // Under AlwaysDeny no controller could act (nor take its lease): the API server alone.
        ts = await startTestServer(
          { tokenAuthFile: join(tokens, 'tokens.csv'), authorizationModes: [mode] },
          { controllers: mode !== 'AlwaysDeny' },
        );
        jane = tokenConfigOf(ts);
      });
      after(async () => {
        await ts.stop();
        rmSync(tokens, { recursive: true, force: true });
      });

      it('the admin may: yes, exit 0, through the upstream group name', async () => {
        const r = await run('auth', 'can-i', 'create', 'pods', '-v=6');
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout.trim(), 'yes');
        assert.ok(r.stderr.includes(`/apis/${UPSTREAM_AUTHZ}/v1/selfsubjectaccessreviews`), r.stderr);
        const ns = await run('auth', 'can-i', 'list', 'secrets', '-n', 'team');
        assert.equal(ns.stdout.trim(), 'yes', ns.stderr);
      });

      it('a SubjectAccessReview for another user answers in status', async () => {
        const sar = {
          apiVersion: `${SERVED_AUTHZ}/v1`,
          kind: 'SubjectAccessReview',
          spec: {
            user: 'alice',
            groups: ['system:authenticated'],
            resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'team' },
          },
        };
        const r = await kubectl(
          k.path,
          ts,
          ['create', '--validate=false', '-f', '-', '-o', 'json'],
          JSON.stringify(sar),
        );
        assert.equal(r.code, 0, r.stderr);
        const out = JSON.parse(r.stdout) as { status: { allowed: boolean; reason?: string } };
        if (mode === 'AlwaysAllow') assert.equal(out.status.allowed, true);
        else assert.deepEqual(out.status, { allowed: false, reason: 'Everything is forbidden.' });
      });

      it('an invalid SubjectAccessReview: 422 with upstream message', async () => {
        const sar = {
          apiVersion: `${SERVED_AUTHZ}/v1`,
          kind: 'SubjectAccessReview',
          spec: { resourceAttributes: { verb: 'get', resource: 'pods' } },
        };
        const r = await kubectl(k.path, ts, ['create', '--validate=false', '-f', '-'], JSON.stringify(sar));
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          // kubectl rewrites an Invalid status's head as `The <Kind> "<name>" is invalid`.
          /The SubjectAccessReview "" is invalid: spec\.user: Invalid value: "": at least one of user or group must be specified/,
        );
      });

      if (mode === 'AlwaysAllow') {
        it('--list shows the rules', async () => {
          const r = await run('auth', 'can-i', '--list', '-n', 'team');
          assert.equal(r.code, 0, r.stderr);
          assert.match(r.stdout, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
          assert.match(r.stdout, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
          assert.match(r.stdout, /^\s+\[\*\]\s+\[\]\s+\[\*\]$/m);
        });

        it('--as alice: the review is answered for alice', async () => {
          const r = await run('auth', 'can-i', 'delete', 'pods', '--as', 'alice', '-n', 'team');
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout.trim(), 'yes');
          const who = await run('auth', 'whoami', '--as', 'alice', '--as-group', 'dev', '-o', 'json');
          assert.equal(who.code, 0, who.stderr);
          const info = JSON.parse(who.stdout) as { status: { userInfo: unknown } };
          assert.deepEqual(info.status.userInfo, {
            username: 'alice',
            groups: ['dev', 'system:authenticated'],
          });
        });

        it('--as-uid and a service account through --as', async () => {
          const who = await run('auth', 'whoami', '--as', 'alice', '--as-uid', 'u-7', '-o', 'json');
          assert.equal(who.code, 0, who.stderr);
          const info = JSON.parse(who.stdout) as { status: { userInfo: unknown } };
          assert.deepEqual(info.status.userInfo, {
            username: 'alice',
            uid: 'u-7',
            groups: ['system:authenticated'],
          });
          const sa = await run('auth', 'whoami', '--as', 'system:serviceaccount:team:builder', '-o', 'json');
          assert.equal(sa.code, 0, sa.stderr);
          assert.deepEqual((JSON.parse(sa.stdout) as { status: { userInfo: unknown } }).status.userInfo, {
            username: 'system:serviceaccount:team:builder',
            groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
          });
        });
      } else {
        it('a user without permission may not impersonate: upstream 403', async () => {
          // --raw: discovery would be refused first, and kubectl reports that without the message.
          const r = await run(
            '--kubeconfig',
            jane,
            'get',
            '--raw',
            '/api/v1/namespaces/default/pods',
            '--as',
            'bob',
          );
          assert.notEqual(r.code, 0);
          assert.match(
            r.stderr,
            /users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope/,
          );
        });

        it('--list as the admin under AlwaysDeny: no rules listed', async () => {
          const r = await run('auth', 'can-i', '--list');
          assert.equal(r.code, 0, r.stderr);
          assert.doesNotMatch(r.stdout, /\*\.\*/);
        });
      }
    });
  }
}
