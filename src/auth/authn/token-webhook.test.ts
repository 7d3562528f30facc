import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { groupName, namingProfile } from '../../naming/profile.ts';
import { createCa, createLeaf, type KeyAndCert } from '../../server/pki/generate.ts';
import {
  TokenReviewWebhook,
  type WebhookAuthenticatorOptions,
  WebhookTokenAuthenticator,
} from './token-webhook.ts';
import { loadWebhookClientConfig, parseWebhookClientConfig } from './webhook-client-config.ts';

const SPEC_GROUP = groupName(namingProfile('spec'), 'authentication');

/** What the test webhook saw of one review. */
interface Seen {
  body: Record<string, unknown>;
  clientCn: string;
  authorization?: string;
}

/** A token webhook on loopback with its own CA, asking for a client certificate from another. */
async function startWebhook(serverCa: KeyAndCert, clientCa: KeyAndCert) {
  const serving = await createLeaf(serverCa, {
    commonName: 'webhook',
    hosts: ['127.0.0.1'],
    usage: 'server',
    validDays: 1,
  });
  const seen: Seen[] = [];
  const calls = new Map<string, number>();
  const hanging = new Set<() => void>();
  const server: Server = createServer(
    { key: serving.keyPem, cert: serving.certPem, ca: clientCa.certPem, requestCert: true },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        seen.push({
          body,
          clientCn: String(peer?.subject?.CN ?? ''),
          authorization: req.headers.authorization,
        });
        const token = String((body.spec as { token: string }).token);
        const n = (calls.get(token) ?? 0) + 1;
        calls.set(token, n);
        const apiVersion = String(body.apiVersion);
        const reply = (status: Record<string, unknown>, over: Record<string, unknown> = {}) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ apiVersion, kind: 'TokenReview', status, ...over }));
        const alice = {
          authenticated: true,
          user: { username: 'alice', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } },
        };
        switch (token) {
          case 'good':
            return reply(alice);
          case 'aud-api':
            return reply({ ...alice, audiences: ['api'] });
          case 'aud-other':
            return reply({ ...alice, audiences: ['other'] });
          case 'spec-group':
            return reply(alice, { apiVersion: `${SPEC_GROUP}/v1` });
          case 'denied':
            return reply({ authenticated: false });
          case 'denied-why':
            return reply({ authenticated: false, error: 'token revoked' });
          case 'garbage':
            return res.writeHead(200).end('{"status": {"authenticated": tru');
          case 'array':
            return res.writeHead(200).end('[1,2]');
          case 'bad-groups':
            return reply({ authenticated: true, user: { username: 'x', groups: 'dev' } });
          case 'wrong-kind':
            return reply(alice, { apiVersion: 'v1', kind: 'Status' });
          case 'flaky':
            if (n === 1) return res.writeHead(500).end('try again');
            return reply(alice);
          case 'unavailable':
            return res.writeHead(503).end('no');
          case 'forbidden':
            return res.writeHead(403).end('{}');
          case 'hang':
            hanging.add(() => res.destroy());
            return;
          default:
            return reply({ authenticated: false });
        }
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/authenticate?x=1`,
    seen,
    calls: (token: string) => calls.get(token) ?? 0,
    async stop() {
      for (const h of hanging) h();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('webhook token authentication', () => {
  let dir: string;
  let serverCa: KeyAndCert;
  let webhook: Awaited<ReturnType<typeof startWebhook>>;
  let configFile: string;
  const made: { close(): void }[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'token-webhook-'));
    serverCa = await createCa('webhook-ca', 1);
    const clientCa = await createCa('webhook-client-ca', 1);
    const client = await createLeaf(clientCa, { commonName: 'apiserver', usage: 'client', validDays: 1 });
    webhook = await startWebhook(serverCa, clientCa);
    writeFileSync(join(dir, 'ca.crt'), serverCa.certPem);
    configFile = join(dir, 'webhook.yaml');
    writeFileSync(
      configFile,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: authn',
        '  cluster:',
        `    server: ${webhook.url}`,
        '    certificate-authority: ca.crt',
        'users:',
        '- name: apiserver',
        '  user:',
        `    client-certificate-data: ${Buffer.from(client.certPem).toString('base64')}`,
        `    client-key-data: ${Buffer.from(client.keyPem).toString('base64')}`,
        'contexts:',
        '- name: webhook',
        '  context: {cluster: authn, user: apiserver}',
        'current-context: webhook',
      ].join('\n'),
    );
  });

  after(async () => {
    for (const m of made) m.close();
    await webhook.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const authn = (over: Partial<WebhookAuthenticatorOptions> = {}) => {
    const a = new WebhookTokenAuthenticator({
      config: loadWebhookClientConfig(configFile),
      version: 'v1beta1',
      apiAudiences: ['api'],
      cacheTtlMs: 120_000,
      acceptedGroups: [SPEC_GROUP],
      backoff: { initialMs: 1, factor: 1.5, jitter: 0.2, steps: 5 },
      ...over,
    });
    made.push(a);
    return a;
  };

  it('sends a v1beta1 TokenReview in the upstream group with token and audiences, over mutual TLS', async () => {
    const before = webhook.seen.length;
    const r = await authn().authenticateToken('good', ['api']);
    assert.deepEqual(r, {
      user: { username: 'alice', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } },
      audiences: ['api'],
    });
    const s = webhook.seen[before];
    assert.equal(s.clientCn, 'apiserver');
    assert.deepEqual(s.body, {
      kind: 'TokenReview',
      apiVersion: 'authentication.k8s.io/v1beta1',
      metadata: { creationTimestamp: null },
      spec: { token: 'good', audiences: ['api'] },
      status: { user: {} },
    });
  });

  it('--authentication-token-webhook-version=v1 sends v1; answers in the profile group are read', async () => {
    const before = webhook.seen.length;
    const r = await authn({ version: 'v1' }).authenticateToken('spec-group', []);
    assert.equal(webhook.seen[before].body.apiVersion, 'authentication.k8s.io/v1');
    assert.deepEqual(webhook.seen[before].body.spec, { token: 'spec-group' });
    assert.ok(r !== null && 'user' in r && r.user.username === 'alice' && r.audiences === undefined);
  });

  it('audiences: the answer must share one with those asked; without any, the API audiences count', async () => {
    const a = authn();
    assert.deepEqual((await a.authenticateToken('aud-api', ['api', 'x'])) as object, {
      user: { username: 'alice', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } },
      audiences: ['api'],
    });
    assert.equal(await a.authenticateToken('aud-other', ['api']), null);
    assert.equal(await a.authenticateToken('good', ['x']), null);
  });

  it('refusals: not authenticated is "not mine"; a refusal with a reason is an error', async () => {
    const a = authn();
    assert.equal(await a.authenticateToken('denied', ['api']), null);
    assert.deepEqual(await a.authenticateToken('denied-why', ['api']), {
      error: 'webhook token authentication failed: token revoked',
    });
  });

  it('caches acceptances and refusals for the TTL, never errors; TTL 0 caches nothing', async () => {
    const base = {
      good: webhook.calls('good'),
      denied: webhook.calls('denied'),
      why: webhook.calls('denied-why'),
    };
    let now = 0;
    const a = authn({ now: () => now });
    for (const t of ['good', 'denied', 'denied-why', 'good', 'denied', 'denied-why'])
      await a.authenticateToken(t, ['api']);
    assert.equal(webhook.calls('good'), base.good + 1);
    assert.equal(webhook.calls('denied'), base.denied + 1);
    assert.equal(webhook.calls('denied-why'), base.why + 2);
    now = 120_001;
    await a.authenticateToken('good', ['api']);
    assert.equal(webhook.calls('good'), base.good + 2);
    const uncached = authn({ cacheTtlMs: 0 });
    await uncached.authenticateToken('good', ['api']);
    await uncached.authenticateToken('good', ['api']);
    assert.equal(webhook.calls('good'), base.good + 4);
  });

  it('garbage, a non-object, malformed fields, another kind, 403 and 503: refused with an error, one call each', async () => {
    const a = authn();
    for (const t of ['garbage', 'array', 'bad-groups', 'wrong-kind', 'forbidden', 'unavailable']) {
      const r = await a.authenticateToken(t, ['api']);
      assert.ok(r !== null && 'error' in r, `${t}: ${JSON.stringify(r)}`);
      assert.equal(webhook.calls(t), 1, t);
    }
  });

  it('a 500 is retried with backoff and the next answer counts', async () => {
    const r = await authn().authenticateToken('flaky', ['api']);
    assert.ok(r !== null && 'user' in r, JSON.stringify(r));
    assert.equal(webhook.calls('flaky'), 2);
  });

  it('a webhook that does not answer in time refuses the token with an error', async () => {
    const r = await authn({ requestTimeoutMs: 200 }).authenticateToken('hang', ['api']);
    assert.deepEqual(r, {
      error: 'webhook token authentication failed: the webhook did not answer within 200 ms',
    });
  });

  it('a webhook that cannot be reached refuses the token with an error', async () => {
    const config = { ...loadWebhookClientConfig(configFile), url: new URL('https://127.0.0.1:1/') };
    const client = new TokenReviewWebhook({ config, version: 'v1', apiAudiences: [], cacheTtlMs: 0 });
    made.push(client);
    await assert.rejects(client.authenticateToken('good', []), /ECONNREFUSED/);
  });

  it('the configuration file: current context, cluster server, readable files, one auth method', () => {
    const f = join(dir, 'x.yaml');
    const base = {
      clusters: [{ name: 'c', cluster: { server: 'https://h/p' } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    };
    const parse = (doc: unknown) => parseWebhookClientConfig(JSON.stringify(doc), f);
    const ok = parse(base);
    assert.equal(ok.url.href, 'https://h/p');
    assert.equal(ok.token, 't');
    assert.throws(() => parse({ ...base, 'current-context': undefined }), /current-context is not set/);
    assert.throws(() => parse({ ...base, 'current-context': 'y' }), /no context named "y"/);
    assert.throws(
      () => parse({ ...base, clusters: [{ name: 'c', cluster: {} }] }),
      /cluster "c": no server found/,
    );
    assert.throws(
      () =>
        parse({
          ...base,
          clusters: [{ name: 'c', cluster: { server: 'https://h', 'certificate-authority': 'nope.crt' } }],
        }),
      /unable to read certificate-authority .*nope\.crt/,
    );
    assert.throws(
      () => parse({ ...base, users: [{ name: 'u', user: { token: 't', username: 'a', password: 'b' } }] }),
      /more than one authentication method/,
    );
    assert.throws(() => parseWebhookClientConfig('a: [', f), /x\.yaml/);
    assert.throws(() => loadWebhookClientConfig(join(dir, 'absent.yaml')), /unable to read/);
  });
});
