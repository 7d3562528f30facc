import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AuthnChain,
  type AuthnRequest,
  BearerTokenAuthenticator,
  bearerToken,
  type PeerCertificate,
  parseTokenFile,
  TokenFileAuthenticator,
  X509Authenticator,
} from './index.ts';

const cert = (over: Partial<PeerCertificate> = {}): PeerCertificate => ({
  verified: true,
  commonName: 'alice',
  organizations: ['dev', 'ops'],
  extKeyUsage: ['1.3.6.1.5.5.7.3.2'],
  ...over,
});

const tokens = parseTokenFile(
  ['# comment', 'tok1,bob,uid-bob,"g1,g2"', 'tok2,carol,uid-carol', 'tok3,dave,uid-dave,g1,g3', ''].join(
    '\n',
  ),
);

const chain = (anonymous = true) =>
  new AuthnChain({
    authenticators: [
      new X509Authenticator(),
      new BearerTokenAuthenticator(new TokenFileAuthenticator(tokens), []),
    ],
    anonymous,
  });

const bearer = (t: string): AuthnRequest => ({ headers: { authorization: `Bearer ${t}` } });

describe('authentication', async () => {
  it('a verified client certificate: CN is the user, each O a group, plus system:authenticated', async () => {
    assert.deepEqual(await chain().authenticate({ headers: {}, peerCertificate: cert() }), {
      ok: true,
      user: { username: 'alice', groups: ['dev', 'ops', 'system:authenticated'] },
    });
  });

  it('a certificate that did not verify, or is not for client auth, is 401, not anonymous', async () => {
    const bad = await chain().authenticate({
      headers: {},
      peerCertificate: cert({ verified: false, verifyError: 'x' }),
    });
    assert.equal(bad.ok, false);
    const serverOnly = await chain().authenticate({
      headers: {},
      peerCertificate: cert({ extKeyUsage: ['1.3.6.1.5.5.7.3.1'] }),
    });
    assert.equal(serverOnly.ok, false);
  });

  it('static tokens: user, uid and groups from the CSV columns', async () => {
    assert.deepEqual(await chain().authenticate(bearer('tok1')), {
      ok: true,
      user: { username: 'bob', uid: 'uid-bob', groups: ['g1', 'g2', 'system:authenticated'] },
    });
    assert.deepEqual(await chain().authenticate(bearer('tok2')), {
      ok: true,
      user: { username: 'carol', uid: 'uid-carol', groups: ['system:authenticated'] },
    });
    assert.deepEqual(await chain().authenticate(bearer('tok3')), {
      ok: true,
      user: { username: 'dave', uid: 'uid-dave', groups: ['g1', 'g3', 'system:authenticated'] },
    });
  });

  it('an unknown bearer token is 401 even with anonymous access on', async () => {
    assert.equal((await chain().authenticate(bearer('nope'))).ok, false);
    assert.equal((await chain().authenticate(bearer(''))).ok, false);
  });

  it('no credential: anonymous in system:unauthenticated, or 401 when anonymous is off', async () => {
    assert.deepEqual(await chain().authenticate({ headers: {} }), {
      ok: true,
      user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
    assert.equal((await chain(false).authenticate({ headers: {} })).ok, false);
  });

  it('anonymous conditions: a request without credentials is anonymous only on the listed paths', async () => {
    const limited = new AuthnChain({
      authenticators: [new X509Authenticator()],
      anonymous: true,
      anonymousPaths: ['/livez', '/readyz'],
    });
    assert.equal((await limited.authenticate({ headers: {}, path: '/livez' })).ok, true);
    assert.equal((await limited.authenticate({ headers: {}, path: '/api/v1/secrets' })).ok, false);
    assert.equal((await limited.authenticate({ headers: {}, path: '/livez/ping' })).ok, false);
    // Credentials are not affected by the conditions.
    assert.equal(
      (await limited.authenticate({ headers: {}, peerCertificate: cert(), path: '/api' })).ok,
      true,
    );
  });

  it('bearer parsing is case-insensitive on the scheme and ignores other schemes', async () => {
    assert.equal(bearerToken({ headers: { authorization: 'bearer abc ' } }), 'abc');
    assert.equal(bearerToken({ headers: { authorization: 'Basic Zm9vOmJhcg==' } }), undefined);
  });

  it('a token file with too few columns, an empty token or a broken quote is refused with its line', async () => {
    assert.throws(() => parseTokenFile('a,b'), /line 1: needs at least 3 columns/);
    assert.throws(() => parseTokenFile('ok,u,1\n,user,uid'), /line 2: empty token/);
    assert.throws(() => parseTokenFile('t,u,1,"g1,g2'), /line 1: unterminated quoted field/);
  });
});
