import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:http2';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { type Listener, listen, peerCertificateOf } from '../../server/listener.ts';
import { createCa, createLeaf, type KeyAndCert } from '../../server/pki/generate.ts';
import { RequestHeaderAuthenticator } from './request-header.ts';
import { chainProblem } from './request-header-chain.ts';
import { AuthnChain } from './union.ts';
import { X509Authenticator } from './x509.ts';

interface Seen {
  status: number;
  user?: unknown;
  /** The proxy headers still on the request after authentication. */
  left?: string[];
}

describe('authenticating proxy (request headers)', () => {
  let servingCa: KeyAndCert;
  let clientCa: KeyAndCert;
  let proxyCa: KeyAndCert;
  let otherCa: KeyAndCert;
  let proxy: KeyAndCert;
  let otherProxy: KeyAndCert;
  let alice: KeyAndCert;
  let stranger: KeyAndCert;
  let serving: KeyAndCert;
  const listeners: Listener[] = [];

  before(async () => {
    [servingCa, clientCa, proxyCa, otherCa] = await Promise.all(
      ['serving-ca', 'client-ca', 'front-proxy-ca', 'other-ca'].map((n) => createCa(n, 1)),
    );
    serving = await createLeaf(servingCa, {
      commonName: 'api',
      hosts: ['127.0.0.1'],
      usage: 'server',
      validDays: 1,
    });
    proxy = await createLeaf(proxyCa, { commonName: 'front-proxy-client', usage: 'client', validDays: 1 });
    otherProxy = await createLeaf(proxyCa, { commonName: 'other-proxy', usage: 'client', validDays: 1 });
    alice = await createLeaf(clientCa, {
      commonName: 'alice',
      organizations: ['dev'],
      usage: 'client',
      validDays: 1,
    });
    stranger = await createLeaf(otherCa, { commonName: 'mallory', usage: 'client', validDays: 1 });
  });

  after(async () => {
    for (const l of listeners) await l.close(0);
  });

  /** A listener whose handler authenticates as the server does and answers the user it found. */
  async function start(opts: { sameCa?: boolean; allowedNames?: string[] } = {}) {
    const clientCaPem = clientCa.certPem;
    const proxyCaPem = opts.sameCa ? clientCa.certPem : proxyCa.certPem;
    const chain = new AuthnChain({
      authenticators: [
        new RequestHeaderAuthenticator({
          anchors: [new X509Certificate(proxyCaPem)],
          allowedNames: opts.allowedNames ?? ['front-proxy-client'],
          usernameHeaders: ['x-remote-user'],
          uidHeaders: ['x-remote-uid'],
          groupHeaders: ['x-remote-group'],
          extraHeaderPrefixes: ['x-remote-extra-'],
        }),
        new X509Authenticator(),
      ],
      anonymous: true,
    });
    const l = await listen({
      host: '127.0.0.1',
      port: 0,
      certPem: serving.certPem,
      keyPem: serving.keyPem,
      clientCaPem,
      requestHeaderCaPem: proxyCaPem,
      async onRequest(req, res) {
        const outcome = await chain.authenticate({
          headers: req.headers,
          rawHeaders: req.rawHeaders,
          peerCertificate: peerCertificateOf(req),
        });
        const left = Object.keys(req.headers).filter((h) => h.startsWith('x-remote-'));
        const body: Seen = outcome.ok ? { status: 200, user: outcome.user, left } : { status: 401 };
        res.writeHead(body.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
    });
    listeners.push(l);
    return l.port;
  }

  function call(
    port: number,
    cert: KeyAndCert | undefined,
    headers: Record<string, string | string[]>,
  ): Promise<Seen> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/',
          ca: servingCa.certPem,
          ...(cert ? { cert: cert.certPem, key: cert.keyPem } : {}),
          headers,
          agent: false,
        },
        (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () => resolve(JSON.parse(text) as Seen));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  const proxyHeaders = {
    'X-Remote-User': 'bob',
    'X-Remote-Uid': 'uid-bob',
    'X-Remote-Group': ['team-a', 'team, b'],
    'X-Remote-Extra-Scopes': ['read', 'write'],
    'X-Remote-Extra-Acme.com%2Fproject': 'p1',
    'X-Remote-Extra-Bad%zz': 'raw',
  };

  it('a certificate of the proxy CA with an allowed name asserts the user, groups, uid and extra; the headers go', async () => {
    const port = await start();
    assert.deepEqual(await call(port, proxy, proxyHeaders), {
      status: 200,
      user: {
        username: 'bob',
        uid: 'uid-bob',
        groups: ['team-a', 'team, b', 'system:authenticated'],
        extra: { scopes: ['read', 'write'], 'acme.com/project': ['p1'], 'bad%zz': ['raw'] },
      },
      left: [],
    });
  });

  it('over HTTP/2 too, repeated headers kept apart', async () => {
    const port = await start();
    const session = connect(`https://127.0.0.1:${port}`, {
      ca: servingCa.certPem,
      cert: proxy.certPem,
      key: proxy.keyPem,
    });
    try {
      const seen = await new Promise<Seen>((resolve, reject) => {
        const s = session.request({
          ':path': '/',
          'x-remote-user': 'carol',
          'x-remote-group': ['g1', 'g2'],
        });
        let text = '';
        s.on('data', (d) => {
          text += d;
        });
        s.on('end', () => resolve(JSON.parse(text) as Seen));
        s.on('error', reject);
        s.end();
      });
      assert.deepEqual(seen.user, { username: 'carol', groups: ['g1', 'g2', 'system:authenticated'] });
    } finally {
      session.close();
    }
  });

  it("a user's own certificate cannot use the headers: it is the certificate's user", async () => {
    const port = await start();
    assert.deepEqual(await call(port, alice, proxyHeaders), {
      status: 200,
      user: { username: 'alice', groups: ['dev', 'system:authenticated'] },
      left: Object.keys(proxyHeaders).map((h) => h.toLowerCase()),
    });
  });

  it('a proxy CA certificate with a name not allowed is refused (401)', async () => {
    const port = await start();
    assert.deepEqual(await call(port, otherProxy, proxyHeaders), { status: 401 });
  });

  it('any name of the proxy CA is allowed when --requestheader-allowed-names is empty', async () => {
    const port = await start({ allowedNames: [] });
    assert.equal(((await call(port, otherProxy, proxyHeaders)).user as { username: string }).username, 'bob');
  });

  it('a proxy certificate without a user header is not a user of its own (401)', async () => {
    const port = await start();
    assert.deepEqual(await call(port, proxy, { 'X-Remote-Group': 'g' }), { status: 401 });
  });

  it('headers without a certificate are ignored (anonymous); a certificate of an unknown CA is 401', async () => {
    const port = await start();
    const anon = await call(port, undefined, proxyHeaders);
    assert.deepEqual(anon.user, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
    assert.deepEqual(await call(port, stranger, proxyHeaders), { status: 401 });
  });

  it('one CA for both: the allowed proxy name asserts users, other certificates are their own users', async () => {
    const port = await start({ sameCa: true, allowedNames: ['alice-proxy'] });
    const aliceProxy = await createLeaf(clientCa, {
      commonName: 'alice-proxy',
      usage: 'client',
      validDays: 1,
    });
    assert.equal(((await call(port, aliceProxy, proxyHeaders)).user as { username: string }).username, 'bob');
    assert.equal(((await call(port, alice, proxyHeaders)).user as { username: string }).username, 'alice');
    assert.equal(((await call(port, aliceProxy, {})).user as { username: string }).username, 'alice-proxy');
  });

  it('chain checks: expired, not yet valid, another CA, server-only usage', async () => {
    const anchors = [new X509Certificate(proxyCa.certPem)];
    const leaf = new X509Certificate(proxy.certPem);
    assert.equal(chainProblem([leaf], anchors), undefined);
    assert.match(
      chainProblem([leaf], anchors, Date.now() + 3 * 86_400_000) ?? '',
      /expired or is not yet valid/,
    );
    assert.match(
      chainProblem([leaf], anchors, Date.now() - 3 * 86_400_000) ?? '',
      /expired or is not yet valid/,
    );
    assert.match(chainProblem([leaf], [new X509Certificate(clientCa.certPem)]) ?? '', /unknown authority/);
    const serverOnly = await createLeaf(proxyCa, { commonName: 'x', usage: 'server', validDays: 1 });
    assert.match(
      chainProblem([new X509Certificate(serverOnly.certPem)], anchors) ?? '',
      /incompatible key usage/,
    );
  });

  it('an empty header name in the flags stops the start', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const file = join(mkdtempSync(join(tmpdir(), 'rh-')), 'ca.crt');
    writeFileSync(file, proxyCa.certPem);
    assert.throws(
      () =>
        RequestHeaderAuthenticator.fromOptions({
          clientCaFile: file,
          usernameHeaders: ['X-Remote-User', ' '],
        }),
      /requestheader-username-headers: empty header/,
    );
    writeFileSync(file, 'not a certificate');
    assert.throws(
      () => RequestHeaderAuthenticator.fromOptions({ clientCaFile: file }),
      /no certificates found/,
    );
  });
});
