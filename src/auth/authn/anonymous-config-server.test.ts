// The anonymous section of an AuthenticationConfiguration on a running server: with conditions,
// a request without credentials is anonymous only on the listed paths and 401 elsewhere; given
// together with an explicit --anonymous-auth, the server does not start (upstream refuses both).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../../server/server.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';

const CONFIG = [
  'apiVersion: apiserver.config.k8s.io/v1',
  'kind: AuthenticationConfiguration',
  'anonymous:',
  '  enabled: true',
  '  conditions:',
  '  - path: /livez',
  '',
].join('\n');

describe('anonymous access from the authentication configuration', () => {
  let dir: string;
  let api: TestApiServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'anonymous-config-'));
    writeFileSync(join(dir, 'authn.yaml'), CONFIG);
    api = await startTestApiServer({
      authorizationModes: ['AlwaysAllow'],
      authentication: { configFile: join(dir, 'authn.yaml') },
    });
  });
  after(async () => {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets requests without credentials in on the listed paths only', async () => {
    assert.equal((await api.call({ path: '/livez', anonymous: true })).status, 200);
    const elsewhere = await api.call({ path: '/version', anonymous: true });
    assert.equal(elsewhere.status, 401);
    assert.equal(JSON.parse(elsewhere.body).reason, 'Unauthorized');
    // A client certificate is not affected by the conditions.
    assert.equal((await api.call({ path: '/version' })).status, 200);
  });

  it('refuses to start beside an explicit --anonymous-auth', async () => {
    const data = mkdtempSync(join(tmpdir(), 'anonymous-config-flag-'));
    try {
      await assert.rejects(
        startServer({
          dataDir: data,
          securePort: 0,
          anonymousAuth: true,
          authentication: { configFile: join(dir, 'authn.yaml'), anonymousAuthGiven: true },
        }),
        /--anonymous-auth flag cannot be set when anonymous field is configured/,
      );
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
