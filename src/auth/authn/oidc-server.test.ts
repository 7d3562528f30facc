// JWT authentication through a running server: an OpenID token from a test issuer reaches the
// API, bad tokens and an unreachable issuer answer 401 Unauthorized (never 500, never anonymous),
// and a bad --oidc-* flag or --authentication-config file makes startServer reject.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../../server/server.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';
import { waitFor } from '../../server/testing/wait-for.ts';
import { TestOidcIssuer } from './testing/oidc-issuer.ts';

describe('JWT authentication through the server', () => {
  let issuer: TestOidcIssuer;
  let api: TestApiServer;
  let dir: string;
  before(async () => {
    issuer = await TestOidcIssuer.start();
    dir = mkdtempSync(join(tmpdir(), 'oidc-server-'));
    writeFileSync(join(dir, 'ca.pem'), issuer.caPem);
    api = await startTestApiServer({
      authentication: {
        oidc: {
          issuerUrl: issuer.url,
          clientId: 'platform',
          caFile: join(dir, 'ca.pem'),
          groupsClaim: 'groups',
        },
      },
    });
  });
  after(async () => {
    await api?.stop();
    await issuer.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  // Discovery is what the default policy (Node,RBAC) grants every authenticated user.
  const get = (token: string, path = '/api') =>
    api.call({ path, anonymous: true, headers: { authorization: `Bearer ${token}` } });

  async function whenReady(token: string): Promise<void> {
    await waitFor(
      () => get(token),
      (r) => r.status === 200,
      'the issuer to become usable',
    );
  }

  it('accepts a token of the issuer', async () => {
    const token = await issuer.issue('platform', { groups: ['dev'] });
    await whenReady(token);
    const r = await api.call({
      method: 'POST',
      path: '/apis/authentication.svc.io/v1/selfsubjectreviews',
      anonymous: true,
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' }),
    });
    assert.equal(r.status, 201, r.body);
    const info = (r.json().status as { userInfo: { username: string; groups: string[] } }).userInfo;
    assert.equal(info.username, `${issuer.url}#jane`);
    assert.deepEqual(info.groups, ['dev', 'system:authenticated']);
  });

  it('answers 401 Unauthorized for every bad token', async () => {
    await whenReady(await issuer.issue('platform'));
    const now = Math.floor(Date.now() / 1000);
    const bad = [
      await issuer.issue('platform', { exp: now - 1 }),
      await issuer.issue('platform', { nbf: now + 3600 }),
      await issuer.issue('other'),
      await issuer.issue('platform', { iss: `${issuer.url}/other` }),
      await issuer.issue('platform', {}, { alg: 'none' }),
      await issuer.issue('platform', {}, { alg: 'RS512' }),
      `${(await issuer.issue('platform')).slice(0, -6)}AAAAAA`,
    ];
    for (const token of bad) {
      const r = await get(token);
      assert.equal(r.status, 401, `${token}: ${r.body}`);
      const s = r.json();
      assert.equal(s.kind, 'Status');
      assert.equal(s.reason, 'Unauthorized');
    }
  });

  it('answers 401 while the issuer cannot be reached at start, then accepts its tokens', async () => {
    const other = await TestOidcIssuer.start();
    other.available = false;
    writeFileSync(join(dir, 'other-ca.pem'), other.caPem);
    const s = await startTestApiServer({
      authentication: {
        oidc: { issuerUrl: other.url, clientId: 'platform', caFile: join(dir, 'other-ca.pem') },
      },
    });
    try {
      const token = await other.issue('platform');
      const r = await s.call({
        path: '/api/v1/namespaces',
        anonymous: true,
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(r.status, 401, r.body);
    } finally {
      other.available = true;
      await s.stop();
      await other.stop();
    }
  });

  it('a bad flag or configuration file makes startServer reject', async () => {
    const start = (authentication: Record<string, unknown>) => {
      const d = mkdtempSync(join(tmpdir(), 'oidc-bad-start-'));
      return startServer({ dataDir: d, securePort: 0, authentication }).finally(() =>
        rmSync(d, { recursive: true, force: true }),
      );
    };
    await assert.rejects(
      start({ oidc: { issuerUrl: 'http://x', clientId: 'c' } }),
      /jwt\[0\]\.issuer\.url: Invalid value: "http:\/\/x": URL scheme must be https/,
    );
    await assert.rejects(
      start({ oidc: { issuerUrl: 'https://x', clientId: 'c', signingAlgs: ['HS256'] } }),
      /unsupported signing alg/,
    );
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      'apiVersion: apiserver.config.svc.io/v1\nkind: AuthenticationConfiguration\njwt:\n- issuer:\n    url: https://x\n  claimMappings:\n    username:\n      claim: sub\n',
    );
    await assert.rejects(
      start({ configFile: file }),
      /invalid authentication configuration: \[jwt\[0\]\.issuer\.audiences: Required value: at least one jwt\[0\]\.issuer\.audiences is required, jwt\[0\]\.claimMappings\.username\.prefix: Required value: prefix is required when claim is set/,
    );
  });
});
