// Stock `kubectl auth whoami` (1.32 and 1.35) against a server with default flags: kubectl posts a
// SelfSubjectReview to the upstream-named authentication group, which the spec profile serves as
// an alias. As the admin (client certificate) and as a static-token user (--token-auth-file).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { groupName, namingProfile } from '../../src/naming/profile.ts';
import { KUBECTLS, kubectl, startTestServer, type TestServer, writeTemp } from './lib/harness.ts';

const UPSTREAM_GROUP = groupName(namingProfile('upstream'), 'authentication');
const TOKEN = 'whoami-token-0123456789';

for (const k of KUBECTLS) {
  describe(`${k.name}: auth whoami`, () => {
    let ts: TestServer;
    let tokenConfig: string;
    const tokens = mkdtempSync(join(tmpdir(), 'whoami-tokens-'));
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    before(async () => {
      writeFileSync(join(tokens, 'tokens.csv'), `${TOKEN},jane,42,"dev,ops"\n`);
      ts = await startTestServer({ tokenAuthFile: join(tokens, 'tokens.csv') });
      // The admin's configuration with the user swapped for the token.
      const admin = parseYaml(ts.server.adminConfig) as {
        users: { name: string; user: Record<string, unknown> }[];
      };
      admin.users = admin.users.map((u) => ({ name: u.name, user: { token: TOKEN } }));
      tokenConfig = writeTemp(ts, 'token.config', toYaml(admin));
    });
    after(async () => {
      await ts.stop();
      rmSync(tokens, { recursive: true, force: true });
    });

    it('as the admin (client certificate)', async () => {
      const r = await run('auth', 'whoami', '-v=6');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^ATTRIBUTE\s+VALUE$/m);
      assert.match(r.stdout, /^Username\s+admin$/m);
      assert.match(r.stdout, /^Groups\s+\[system:masters system:authenticated\]$/m);
      assert.ok(r.stderr.includes(`/apis/${UPSTREAM_GROUP}/v1/selfsubjectreviews`), r.stderr);
    });

    it('as a static-token user, with its uid', async () => {
      const r = await run('--kubeconfig', tokenConfig, 'auth', 'whoami');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^Username\s+jane$/m);
      assert.match(r.stdout, /^UID\s+42$/m);
      assert.match(r.stdout, /^Groups\s+\[dev ops system:authenticated\]$/m);
    });

    it('-o json answers in the group of the path kubectl used', async () => {
      const r = await run('--kubeconfig', tokenConfig, 'auth', 'whoami', '-o', 'json');
      assert.equal(r.code, 0, r.stderr);
      const obj = JSON.parse(r.stdout) as { apiVersion: string; kind: string; status: { userInfo: unknown } };
      assert.equal(obj.apiVersion, `${UPSTREAM_GROUP}/v1`);
      assert.equal(obj.kind, 'SelfSubjectReview');
      assert.deepEqual(obj.status.userInfo, {
        username: 'jane',
        uid: '42',
        groups: ['dev', 'ops', 'system:authenticated'],
      });
    });

    it('a token nobody knows is refused with 401', async () => {
      const bad = writeTemp(ts, 'bad.config', ts.server.adminConfig);
      const cfg = parseYaml(ts.server.adminConfig) as { users: { name: string; user: unknown }[] };
      cfg.users = cfg.users.map((u) => ({ name: u.name, user: { token: 'nope' } }));
      writeFileSync(bad, toYaml(cfg));
      const r = await run('--kubeconfig', bad, 'auth', 'whoami');
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Unauthorized/);
    });
  });
}
