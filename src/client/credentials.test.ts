// Credentials through the REST client against a server: a 401 answered by fresh credentials, a
// token file rotated under a running client, an exec plugin named (by a relative path) in a
// platconfig, and a changed client certificate presented on a new connection.

import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ApiError } from '../machinery/status.ts';
import { clientAuthenticationGroup, execInfoEnvName, groupName, namingProfile } from '../naming/index.ts';
import { createLeaf } from '../server/pki/generate.ts';
import { startTestApiServer, type TestApiServer } from '../server/testing/index.ts';
import type { CredentialSource, Credentials } from './api.ts';
import { restOptionsFromPlatconfig } from './config.ts';
import { RestClient } from './rest-client.ts';

const profile = namingProfile('spec');
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

/** Who the server says a client is. */
async function whoami(c: RestClient): Promise<string> {
  const group = groupName(profile, 'authentication');
  const review = await c
    .resource({ group, version: 'v1', resource: 'selfsubjectreviews' })
    .create({ apiVersion: `${group}/v1`, kind: 'SelfSubjectReview' });
  return (review.status as { userInfo: { username: string } }).userInfo.username;
}

describe('credentials against a server', () => {
  let t: TestApiServer;
  let dir: string;
  let server: string;
  let caPem: string | undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'client-test-credentials-'));
    writeFileSync(join(dir, 'tokens.csv'), 'good-token,alice,1001,system:masters\n');
    t = await startTestApiServer({ tokenAuthFile: join(dir, 'tokens.csv') });
    ({ server, caPem } = restOptionsFromPlatconfig(t.server.adminConfigPath));
  });
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A platconfig beside `dir`'s files for one user stanza (YAML lines under `user:`). */
  const platconfig = (name: string, user: string[]) => {
    const file = join(dir, name);
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `  - name: c\n    cluster:\n      server: ${server}`,
        `      certificate-authority-data: ${Buffer.from(caPem ?? '').toString('base64')}`,
        'users:',
        '  - name: u',
        '    user:',
        ...user.map((l) => `      ${l}`),
        'contexts:',
        '  - name: x\n    context: { cluster: c, user: u }',
        'current-context: x',
        '',
      ].join('\n'),
    );
    return file;
  };

  it('on a 401 tells the credential source and resends once with the credentials it then has', async () => {
    const seen: string[] = [];
    let token = 'stale-token';
    const source: CredentialSource = {
      current: async () => ({ token }),
      unauthorized(used: Credentials) {
        seen.push(used.token ?? '');
        if (used.token === 'stale-token') token = 'good-token';
      },
    };
    const c = new RestClient({ server, caPem, credentials: source });
    try {
      assert.equal(await whoami(c), 'alice');
      assert.deepEqual(seen, ['stale-token']);
      // Credentials that do not change after a 401 are not resent: the 401 is the answer.
      token = 'wrong-token';
      const denied = await whoami(c).catch((e) => e);
      assert.deepEqual([(denied as ApiError).code, (denied as ApiError).reason], [401, 'Unauthorized']);
      assert.deepEqual(seen, ['stale-token', 'wrong-token']);
    } finally {
      c.close();
    }
  });

  it('re-reads a rotated token file when the token it had is refused', async () => {
    writeFileSync(join(dir, 'token'), 'stale-token\n');
    const c = new RestClient(restOptionsFromPlatconfig(platconfig('token-file.conf', ['tokenFile: token'])));
    try {
      writeFileSync(join(dir, 'token'), 'good-token\n');
      assert.equal(await whoami(c), 'alice');
    } finally {
      c.close();
    }
  });

  it('runs an exec plugin named by a path relative to the platconfig, and uses its token', async () => {
    const plugin = join(dir, 'plugin.mjs');
    writeFileSync(
      plugin,
      `#!${process.execPath}
const input = JSON.parse(process.env[${JSON.stringify(execInfoEnvName(profile))}]);
process.stdout.write(JSON.stringify({ apiVersion: input.apiVersion, kind: 'ExecCredential', status: { token: process.argv[2] } }));
`,
    );
    chmodSync(plugin, 0o755);
    const file = platconfig('exec.conf', [
      'exec:',
      `  apiVersion: ${clientAuthenticationGroup(profile)}/v1`,
      '  command: ./plugin.mjs',
      '  args: [good-token]',
      '  interactiveMode: Never',
    ]);
    const c = new RestClient(restOptionsFromPlatconfig(file, { exec: { stdinUnavailable: true } }));
    try {
      assert.equal(await whoami(c), 'alice');
    } finally {
      c.close();
    }
  });

  it('presents a changed client certificate on a new connection (a new TLS handshake)', async () => {
    const ca = {
      certPem: readFileSync(join(t.dir, 'ca.crt'), 'utf8'),
      keyPem: readFileSync(join(t.dir, 'ca.key'), 'utf8'),
    };
    const carol = await createLeaf(ca, {
      commonName: 'carol',
      organizations: ['system:masters'],
      usage: 'client',
      validDays: 1,
    });
    let creds: Credentials = {
      clientCertificatePem: readFileSync(join(t.dir, 'admin.crt'), 'utf8'),
      clientKeyPem: readFileSync(join(t.dir, 'admin.key'), 'utf8'),
    };
    const c = new RestClient({
      server,
      caPem,
      credentials: { current: async () => creds, unauthorized() {} },
    });
    try {
      assert.equal(await whoami(c), 'admin');
      // A watch keeps the first connection busy; the new certificate must not ride on it.
      const w = await c.resource(CONFIGMAPS, 'default').watch({ resourceVersion: '0' });
      creds = { clientCertificatePem: carol.certPem, clientKeyPem: carol.keyPem };
      assert.equal(await whoami(c), 'carol');
      w.stop();
    } finally {
      c.close();
    }
  });
});
