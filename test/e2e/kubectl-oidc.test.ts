// Stock kubectl (1.32 and 1.35) as an OpenID user: a platconfig whose user holds an ID token from
// a test issuer on loopback (its own CA), against a server started with the --oidc-* options.
// `get namespaces` and `auth whoami` show the mapped user; an expired token is refused.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { TestOidcIssuer } from '../../src/auth/authn/testing/oidc-issuer.ts';
import { KUBECTLS, kubectl, startTestServer, type TestServer, writeTemp } from './lib/harness.ts';

for (const k of KUBECTLS) {
  describe(`${k.name}: OpenID user`, () => {
    let issuer: TestOidcIssuer;
    let ts: TestServer;
    let config: string;
    let expiredConfig: string;
    const caDir = mkdtempSync(join(tmpdir(), 'oidc-e2e-ca-'));
    const run = (cfg: string, ...args: string[]) => kubectl(k.path, ts, ['--kubeconfig', cfg, ...args]);

    const configWith = (name: string, token: string) => {
      const admin = parseYaml(ts.server.adminConfig) as {
        users: { name: string; user: Record<string, unknown> }[];
      };
      admin.users = admin.users.map((u) => ({ name: u.name, user: { token } }));
      return writeTemp(ts, name, toYaml(admin));
    };

    before(async () => {
      issuer = await TestOidcIssuer.start();
      const caFile = join(caDir, 'ca.pem');
      writeFileSync(caFile, issuer.caPem);
      ts = await startTestServer({
        authentication: {
          oidc: {
            issuerUrl: issuer.url,
            clientId: 'platform',
            caFile,
            usernameClaim: 'email',
            groupsClaim: 'groups',
            groupsPrefix: 'oidc:',
          },
        },
      });
      config = configWith(
        'oidc.config',
        await issuer.issue('platform', { email: 'jane@example.com', email_verified: true, groups: ['dev'] }),
      );
      const now = Math.floor(Date.now() / 1000);
      expiredConfig = configWith(
        'expired.config',
        await issuer.issue('platform', { email: 'jane@example.com', exp: now - 60 }),
      );
      // The default policy (RBAC) lets a plain user read nothing: the OpenID users' group gets
      // cluster-admin, created by the admin as a cluster operator would.
      const bind = await kubectl(k.path, ts, [
        'create',
        'clusterrolebinding',
        'oidc-dev',
        '--clusterrole=cluster-admin',
        '--group=oidc:dev',
      ]);
      assert.equal(bind.code, 0, bind.stderr);
      // The server fetches the issuer's keys in the background (and RBAC learns the binding from
      // its watch): wait until the token is accepted.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const r = await run(config, 'get', 'namespaces', '-o', 'name');
        if (r.code === 0) break;
        assert.ok(Date.now() < deadline, `the token was never accepted: ${r.stderr}`);
      }
    });
    after(async () => {
      await ts?.stop();
      await issuer?.stop();
      rmSync(caDir, { recursive: true, force: true });
    });

    it('get namespaces', async () => {
      const r = await run(config, 'get', 'namespaces');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^default\s+Active/m);
    });

    it('auth whoami shows the mapped user and groups', async () => {
      const r = await run(config, 'auth', 'whoami');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^Username\s+jane@example\.com$/m);
      assert.match(r.stdout, /^Groups\s+\[oidc:dev system:authenticated\]$/m);
    });

    it('an expired token is refused with 401', async () => {
      const r = await run(expiredConfig, 'get', 'namespaces');
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Unauthorized/);
    });
  });
}
