// Stock `kubectl create token` (1.32 and 1.35) against a server with default flags: the token it
// prints authenticates as the service account (get, auth whoami), verifies against the server's
// published JWKS, stops working once the service account is deleted, and survives a restart on the
// same data directory (the generated signing key is reused).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { startServer } from '../../src/server/server.ts';
import { client } from '../../src/server/testing/http-client.ts';
import { KUBECTLS, kubectl, startTestServer, type TestServer, waitFor, writeTemp } from './lib/harness.ts';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** The admin's client configuration with the user swapped for a bearer token. */
function tokenConfig(ts: TestServer, adminConfig: string, token: string, file: string): string {
  const cfg = parseYaml(adminConfig) as { users: { name: string; user: Record<string, unknown> }[] };
  cfg.users = cfg.users.map((u) => ({ name: u.name, user: { token } }));
  return writeTemp(ts, file, toYaml(cfg));
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

for (const k of KUBECTLS) {
  describe(`${k.name}: create token`, () => {
    let ts: TestServer;
    const run = (...args: string[]) => kubectl(k.path, ts, args);
    before(async () => {
      ts = await startTestServer();
      const r = await run('create', 'serviceaccount', 'bot');
      assert.equal(r.code, 0, r.stderr);
      // The default policy (RBAC) lets a service account read nothing of its namespace: grant view.
      const bind = await run(
        'create',
        'rolebinding',
        'bot-view',
        '--clusterrole=view',
        '--serviceaccount=default:bot',
      );
      assert.equal(bind.code, 0, bind.stderr);
    });
    after(() => ts.stop());

    it('prints a token that authenticates as the service account', async () => {
      const r = await run('create', 'token', 'bot');
      assert.equal(r.code, 0, r.stderr);
      const token = r.stdout.trim();
      const claims = claimsOf(token);
      assert.equal(claims.iss, ISSUER);
      assert.deepEqual(claims.aud, [ISSUER]);
      assert.equal(claims.sub, 'system:serviceaccount:default:bot');
      assert.equal(Number(claims.exp) - Number(claims.iat), 3600);
      const cfg = tokenConfig(ts, ts.server.adminConfig, token, 'bot.config');
      // RBAC learns the binding from its watch: retry a refusal for a while.
      let get = await run('--kubeconfig', cfg, 'get', 'serviceaccount', 'bot', '-o', 'name');
      for (
        const deadline = Date.now() + 20_000;
        get.code !== 0 && /Forbidden/.test(get.stderr) && Date.now() < deadline;
      ) {
        get = await run('--kubeconfig', cfg, 'get', 'serviceaccount', 'bot', '-o', 'name');
      }
      assert.equal(get.code, 0, get.stderr);
      assert.equal(get.stdout.trim(), 'serviceaccount/bot');
      const who = await run('--kubeconfig', cfg, 'auth', 'whoami', '-o', 'json');
      assert.equal(who.code, 0, who.stderr);
      const info = (JSON.parse(who.stdout) as { status: { userInfo: Record<string, unknown> } }).status
        .userInfo;
      assert.equal(info.username, 'system:serviceaccount:default:bot');
      assert.deepEqual(info.groups, [
        'system:serviceaccounts',
        'system:serviceaccounts:default',
        'system:authenticated',
      ]);
      assert.deepEqual(Object.values(info.extra as Record<string, string[]>), [[`JTI=${claims.jti}`]]);
    });

    it('the token verifies against the published JWKS; the discovery documents are cacheable', async () => {
      const token = (await run('create', 'token', 'bot', '--audience=other', '--duration=20m')).stdout.trim();
      const http = client(ts.server, ts.dir);
      const config = await http({ path: '/.well-known/openid-configuration' });
      assert.equal(config.status, 200, config.body);
      assert.equal(config.headers['cache-control'], 'public, max-age=3600');
      const doc = config.json() as Record<string, unknown>;
      assert.equal(doc.issuer, ISSUER);
      assert.equal(doc.jwks_uri, `https://127.0.0.1:${ts.server.port}/openid/v1/jwks`);
      const jwks = await http({ path: '/openid/v1/jwks' });
      assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.json() as { keys: [] }), {
        issuer: ISSUER,
        audience: 'other',
      });
      assert.equal(Number(payload.exp) - Number(payload.iat), 1200);
      // A token for another audience is not one for this API.
      const cfg = tokenConfig(ts, ts.server.adminConfig, token, 'other.config');
      const refused = await run('--kubeconfig', cfg, 'get', 'serviceaccounts');
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /Unauthorized/);
    });

    it('refuses too short a lifetime and unknown service accounts with upstream words', async () => {
      const short = await run('create', 'token', 'bot', '--duration=1m');
      assert.notEqual(short.code, 0);
      assert.match(
        short.stderr,
        /spec\.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes/,
      );
      const missing = await run('create', 'token', 'nobody');
      assert.match(missing.stderr, /serviceaccounts "nobody" not found/);
    });

    it('a tampered token is a 401, and a deleted service account takes its tokens with it', async () => {
      assert.equal((await run('create', 'serviceaccount', 'temp')).code, 0);
      const token = (await run('create', 'token', 'temp')).stdout.trim();
      const [h, p, s] = token.split('.');
      const tampered = `${h}.${p}.${s.slice(0, -4)}AAAA`;
      const bad = await run(
        '--kubeconfig',
        tokenConfig(ts, ts.server.adminConfig, tampered, 't.config'),
        'get',
        'sa',
      );
      assert.match(bad.stderr, /Unauthorized/);
      const cfg = tokenConfig(ts, ts.server.adminConfig, token, 'temp.config');
      // whoami is what the default policy grants any authenticated user.
      assert.equal((await run('--kubeconfig', cfg, 'auth', 'whoami')).code, 0);
      assert.equal((await run('delete', 'serviceaccount', 'temp')).code, 0);
      // Successes are cached for a few seconds, as upstream caches them.
      const last = await waitFor(
        () => run('--kubeconfig', cfg, 'auth', 'whoami'),
        (r) => r.code !== 0,
        'the token to stop working',
        { settle: true },
      );
      assert.match(last.stderr, /Unauthorized/);
    });
  });
}

describe('service account tokens across a restart', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  // The harness stops the server it started; the restarted one is stopped here first.
  after(async () => {
    await ts.server.stop();
    await ts.stop();
  });

  it('a token issued before a restart still authenticates after it', async () => {
    const k = KUBECTLS[0];
    assert.equal((await kubectl(k.path, ts, ['create', 'serviceaccount', 'keeper'])).code, 0);
    // The default policy (RBAC) lets a service account read nothing of its namespace: grant view.
    const bind = await kubectl(k.path, ts, [
      'create',
      'rolebinding',
      'keeper-view',
      '--clusterrole=view',
      '--serviceaccount=default:keeper',
    ]);
    assert.equal(bind.code, 0, bind.stderr);
    const token = (await kubectl(k.path, ts, ['create', 'token', 'keeper'])).stdout.trim();
    await ts.server.stop();
    ts.server = await startServer({ dataDir: ts.dir, securePort: 0 });
    await ts.server.ready;
    const cfg = tokenConfig(ts, ts.server.adminConfig, token, 'keeper.config');
    let r = await kubectl(k.path, ts, ['--kubeconfig', cfg, 'get', 'sa', 'keeper', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'serviceaccount/keeper');
    r = await kubectl(k.path, ts, ['--kubeconfig', cfg, 'auth', 'whoami']);
    assert.match(r.stdout, /system:serviceaccount:default:keeper/);
  });
});
