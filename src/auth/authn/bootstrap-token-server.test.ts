// Bootstrap tokens, the token webhook and the authenticating proxy through a running server started
// with their flags: who SelfSubjectReview says the caller is, and 401 Unauthorized Statuses (never
// 500, never anonymous) for an expired bootstrap token, a webhook that answers garbage, and a
// proxy certificate whose name is not allowed. Bad files stop the start.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { groupName, namingProfile } from '../../naming/profile.ts';
import { createCa, createLeaf, type KeyAndCert } from '../../server/pki/generate.ts';
import { startServer } from '../../server/server.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/http-client.ts';
import { waitFor } from '../../server/testing/wait-for.ts';
import { bootstrapNames } from './bootstrap-token.ts';

const SPEC = namingProfile('spec');
const AUTHN_GROUP = groupName(SPEC, 'authentication');
const BOOTSTRAP = bootstrapNames(SPEC);
const REVIEW_PATH = `/apis/${AUTHN_GROUP}/v1/selfsubjectreviews`;
const REVIEW = JSON.stringify({ apiVersion: `${AUTHN_GROUP}/v1`, kind: 'SelfSubjectReview' });

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe('bootstrap tokens, token webhook and authenticating proxy through the server', () => {
  let dir: string;
  let api: TestApiServer;
  let webhook: Server;
  let proxyCa: KeyAndCert;
  let proxy: KeyAndCert;
  let intruder: KeyAndCert;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'authn-flags-'));
    const webhookCa = await createCa('webhook-ca', 1);
    const serving = await createLeaf(webhookCa, {
      commonName: 'w',
      hosts: ['127.0.0.1'],
      usage: 'server',
      validDays: 1,
    });
    webhook = createServer({ key: serving.keyPem, cert: serving.certPem }, (req, res) => {
      let text = '';
      req.on('data', (d) => {
        text += d;
      });
      req.on('end', () => {
        const review = JSON.parse(text) as { apiVersion: string; spec: { token: string } };
        if (review.spec.token === 'wh-garbage') return res.writeHead(200).end('<html>');
        const ok = review.spec.token === 'wh-good';
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            apiVersion: review.apiVersion,
            kind: 'TokenReview',
            status: ok ? { authenticated: true, user: { username: 'webhook-user', groups: ['wh'] } } : {},
          }),
        );
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    const port = (webhook.address() as AddressInfo).port;
    writeFileSync(join(dir, 'webhook-ca.crt'), webhookCa.certPem);
    writeFileSync(
      join(dir, 'webhook.yaml'),
      `clusters: [{name: w, cluster: {server: "https://127.0.0.1:${port}/review", certificate-authority: webhook-ca.crt}}]
contexts: [{name: w, context: {cluster: w}}]
current-context: w
`,
    );
    proxyCa = await createCa('front-proxy-ca', 1);
    proxy = await createLeaf(proxyCa, { commonName: 'front-proxy', usage: 'client', validDays: 1 });
    intruder = await createLeaf(proxyCa, { commonName: 'intruder', usage: 'client', validDays: 1 });
    writeFileSync(join(dir, 'proxy-ca.crt'), proxyCa.certPem);
    api = await startTestApiServer({
      authentication: {
        enableBootstrapTokenAuth: true,
        tokenWebhook: { configFile: join(dir, 'webhook.yaml') },
        requestHeader: {
          clientCaFile: join(dir, 'proxy-ca.crt'),
          allowedNames: ['front-proxy'],
          usernameHeaders: ['X-Remote-User'],
          groupHeaders: ['X-Remote-Group'],
          extraHeaderPrefixes: ['X-Remote-Extra-'],
        },
      },
    });
  });

  after(async () => {
    await api?.stop();
    webhook.closeAllConnections();
    await new Promise((resolve) => webhook.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /** SelfSubjectReview as the given credential (none: anonymous). */
  function review(opts: { token?: string; cert?: KeyAndCert; headers?: Record<string, string | string[]> }) {
    return new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: api.server.port,
          method: 'POST',
          path: REVIEW_PATH,
          ca: readFileSync(join(api.dir, 'ca.crt')),
          ...(opts.cert ? { cert: opts.cert.certPem, key: opts.cert.keyPem } : {}),
          agent: false,
          headers: {
            'content-type': 'application/json',
            ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
            ...opts.headers,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(REVIEW);
    });
  }

  const userOf = (a: Answer) => (a.body.status as { userInfo: Record<string, unknown> }).userInfo;

  function assertUnauthorized(a: Answer) {
    assert.equal(a.status, 401, JSON.stringify(a.body));
    assert.equal(a.body.kind, 'Status');
    assert.equal(a.body.reason, 'Unauthorized');
  }

  async function createSecret(name: string, data: Record<string, string>) {
    const r = await api.call({
      method: 'POST',
      path: `/api/v1/namespaces/${BOOTSTRAP.namespace}/secrets`,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name },
        type: BOOTSTRAP.secretType,
        stringData: data,
      }),
    });
    assert.equal(r.status, 201, r.body);
  }

  it('a bootstrap token of its Secret in the system namespace is system:bootstrap:<id>', async () => {
    const token = 'abcdef.0123456789abcdef';
    assertUnauthorized(await review({ token }));
    await createSecret('bootstrap-token-abcdef', {
      'token-id': 'abcdef',
      'token-secret': '0123456789abcdef',
      'usage-bootstrap-authentication': 'true',
      'auth-extra-groups': 'system:bootstrappers:nodes',
      expiration: new Date(Date.now() + 3600_000).toISOString(),
    });
    // The Secret reaches the authenticator through the watch cache.
    const a = await waitFor(
      () => review({ token }),
      (r) => r.status === 201,
      'the token',
      { settle: true },
    );
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.deepEqual(userOf(a), {
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:bootstrappers:nodes', 'system:authenticated'],
    });
  });

  it('an expired bootstrap token and one not for authentication are 401', async () => {
    await createSecret('bootstrap-token-expire', {
      'token-id': 'expire',
      'token-secret': '0123456789abcdef',
      'usage-bootstrap-authentication': 'true',
      expiration: '2020-01-01T00:00:00Z',
    });
    await createSecret('bootstrap-token-nouse0', {
      'token-id': 'nouse0',
      'token-secret': '0123456789abcdef',
    });
    // Written after both, and good: once it authenticates, the cache has seen the other two.
    await createSecret('bootstrap-token-marker', {
      'token-id': 'marker',
      'token-secret': '0123456789abcdef',
      'usage-bootstrap-authentication': 'true',
    });
    await waitFor(
      () => review({ token: 'marker.0123456789abcdef' }),
      (r) => r.status === 201,
      'the marker token to authenticate',
    );
    assertUnauthorized(await review({ token: 'expire.0123456789abcdef' }));
    assertUnauthorized(await review({ token: 'nouse0.0123456789abcdef' }));
  });

  it('the token webhook names users; a refusal or garbage is 401', async () => {
    const a = await review({ token: 'wh-good' });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.deepEqual(userOf(a), { username: 'webhook-user', groups: ['wh', 'system:authenticated'] });
    assertUnauthorized(await review({ token: 'wh-refused' }));
    assertUnauthorized(await review({ token: 'wh-garbage' }));
  });

  it('the proxy names users with its certificate; the admin certificate still is the admin; a wrong name is 401', async () => {
    const headers = {
      'X-Remote-User': 'jane',
      'X-Remote-Group': ['g1', 'g2'],
      'X-Remote-Extra-Team': 'blue',
    };
    const a = await review({ cert: proxy, headers });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.deepEqual(userOf(a), {
      username: 'jane',
      groups: ['g1', 'g2', 'system:authenticated'],
      extra: { team: ['blue'] },
    });
    const admin = {
      certPem: readFileSync(join(api.dir, 'admin.crt'), 'utf8'),
      keyPem: readFileSync(join(api.dir, 'admin.key'), 'utf8'),
    };
    const b = await review({ cert: admin, headers });
    assert.equal(userOf(b).username, 'admin');
    assertUnauthorized(await review({ cert: intruder, headers }));
  });

  it('a bad webhook configuration or proxy CA file stops the start', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'clusters: []\n');
    const d = mkdtempSync(join(tmpdir(), 'authn-flags-bad-'));
    try {
      await assert.rejects(
        startServer({ dataDir: d, securePort: 0, authentication: { tokenWebhook: { configFile: bad } } }),
        /current-context is not set/,
      );
      await assert.rejects(
        startServer({ dataDir: d, securePort: 0, authentication: { requestHeader: { clientCaFile: bad } } }),
        /no certificates found/,
      );
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});
