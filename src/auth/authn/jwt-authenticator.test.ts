// The flag form of the JWT authenticator (--oidc-*) against a test issuer on loopback: username
// and group mappings with upstream's prefix rules, required claims, the email_verified rule, and
// every bad token refused (expired, not yet valid, wrong audience or issuer, unsigned, wrong
// algorithm, tampered, unknown key before and after rotation, keys unreachable).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type JwtSetup, setUpJwtAuthenticators } from './jwt-setup.ts';
import type { OidcOptions } from './options.ts';
import { newIssuerKey, TestOidcIssuer } from './testing/oidc-issuer.ts';
import type { TokenResult } from './types.ts';

const quiet = () => {};
const FAST = { retryIntervalMs: 20, minRefreshIntervalMs: 0 };

describe('JWT authenticator, flag form', () => {
  let issuer: TestOidcIssuer;
  let dir: string;
  const setups: JwtSetup[] = [];

  before(async () => {
    issuer = await TestOidcIssuer.start();
    dir = mkdtempSync(join(tmpdir(), 'oidc-flags-'));
    writeFileSync(join(dir, 'ca.pem'), issuer.caPem);
  });
  after(async () => {
    for (const s of setups) s.close();
    await issuer.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function setup(o: Partial<OidcOptions> = {}): Promise<JwtSetup> {
    const s = setUpJwtAuthenticators({
      oidc: { issuerUrl: issuer.url, clientId: 'platform', caFile: join(dir, 'ca.pem'), ...o },
      provider: FAST,
      log: quiet,
    });
    setups.push(s);
    await s.tokens?.members[0].provider.ready;
    return s;
  }
  const auth = (s: JwtSetup, token: string): Promise<TokenResult> => s.tokens!.authenticateToken(token);
  const user = (r: TokenResult) => {
    assert.ok(r !== null && 'user' in r, JSON.stringify(r));
    return r.user;
  };
  const refused = (r: TokenResult, pattern: RegExp) => {
    assert.ok(r !== null && 'error' in r, `expected a refusal, got ${JSON.stringify(r)}`);
    assert.match(r.error, pattern);
  };

  it('maps sub with the issuer as prefix by default', async () => {
    const s = await setup();
    const u = user(await auth(s, await issuer.issue('platform')));
    assert.deepEqual(u, { username: `${issuer.url}#jane`, groups: [] });
  });

  it('email as username claim gets no prefix; "-" turns the prefix off; a prefix is used as given', async () => {
    const email = await setup({ usernameClaim: 'email' });
    const t = await issuer.issue('platform', { email: 'jane@example.com', email_verified: true });
    assert.equal(user(await auth(email, t)).username, 'jane@example.com');
    const none = await setup({ usernamePrefix: '-' });
    assert.equal(user(await auth(none, await issuer.issue('platform'))).username, 'jane');
    const pre = await setup({ usernamePrefix: 'oidc:' });
    assert.equal(user(await auth(pre, await issuer.issue('platform'))).username, 'oidc:jane');
  });

  it('a present email_verified must be true when the username is the email', async () => {
    const s = await setup({ usernameClaim: 'email' });
    refused(
      await auth(s, await issuer.issue('platform', { email: 'a@b.c', email_verified: false })),
      /oidc: email not verified/,
    );
    assert.equal(user(await auth(s, await issuer.issue('platform', { email: 'a@b.c' }))).username, 'a@b.c');
    refused(
      await auth(s, await issuer.issue('platform')),
      /parse username claims "email": claim not present/,
    );
  });

  it('groups from a list or a single string, with the prefix', async () => {
    const s = await setup({ groupsClaim: 'groups', groupsPrefix: 'oidc:' });
    assert.deepEqual(user(await auth(s, await issuer.issue('platform', { groups: ['a', 'b'] }))).groups, [
      'oidc:a',
      'oidc:b',
    ]);
    assert.deepEqual(user(await auth(s, await issuer.issue('platform', { groups: 'admin' }))).groups, [
      'oidc:admin',
    ]);
    assert.deepEqual(user(await auth(s, await issuer.issue('platform'))).groups, []);
    refused(await auth(s, await issuer.issue('platform', { groups: 3 })), /parse groups claim "groups"/);
  });

  it('required claims must be present with the value', async () => {
    const s = await setup({ requiredClaims: { hd: 'example.com' } });
    assert.ok(user(await auth(s, await issuer.issue('platform', { hd: 'example.com' }))));
    refused(await auth(s, await issuer.issue('platform')), /required claim hd not present in ID token/);
    refused(
      await auth(s, await issuer.issue('platform', { hd: 'evil.com' })),
      /required claim hd value does not match. Got = evil.com, want = example.com/,
    );
  });

  it('refuses expired, not yet valid, wrong-audience and missing-exp tokens', async () => {
    const s = await setup();
    const now = Math.floor(Date.now() / 1000);
    refused(await auth(s, await issuer.issue('platform', { exp: now - 10 })), /token is expired/);
    refused(await auth(s, await issuer.issue('platform', { exp: undefined })), /token is expired/);
    refused(await auth(s, await issuer.issue('platform', { nbf: now + 3600 })), /before the nbf/);
    // Within the five minutes of clock skew upstream allows.
    assert.ok(user(await auth(s, await issuer.issue('platform', { nbf: now + 60 }))));
    refused(await auth(s, await issuer.issue('other')), /expected audience "platform" got \["other"\]/);
    assert.ok(user(await auth(s, await issuer.issue(['other', 'platform']))));
  });

  it('a token of another issuer is not its business; a forged iss with our issuer is refused', async () => {
    const s = await setup();
    assert.equal(await auth(s, await issuer.issue('platform', { iss: 'https://elsewhere.example' })), null);
    assert.equal(await auth(s, 'not-a-jwt'), null);
  });

  it('refuses unsigned tokens, other algorithms and tampered ones', async () => {
    const s = await setup();
    refused(await auth(s, await issuer.issue('platform', {}, { alg: 'none' })), /unsupported algorithm/);
    const t = await issuer.issue('platform');
    const [h, p, sig] = t.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url');
    refused(await auth(s, `${h}.${forged}.${sig}`), /failed to verify signature/);
    refused(await auth(s, `${h}.${p}.${sig.slice(0, -4)}AAAA`), /failed to verify signature/);
    // An ES256 token from a key the issuer publishes, while the flags accept RS256 only.
    const ec = newIssuerKey('ES256');
    issuer.keys.push(ec);
    try {
      refused(
        await auth(s, await issuer.issue('platform', {}, { key: ec })),
        /unsupported algorithm, expected \["RS256"\] got "ES256"/,
      );
      const es = await setup({ signingAlgs: ['ES256', 'RS256'] });
      assert.ok(user(await auth(es, await issuer.issue('platform', {}, { key: ec }))));
    } finally {
      issuer.keys = issuer.keys.filter((k) => k !== ec);
    }
  });

  it('an unknown kid fetches the keys again; after rotation the old key is refused, the new one accepted', async () => {
    const s = await setup();
    const stranger = newIssuerKey('RS256');
    const before = issuer.fetchesOf('/keys');
    refused(
      await auth(s, await issuer.issue('platform', {}, { key: stranger })),
      /failed to verify signature/,
    );
    assert.ok(issuer.fetchesOf('/keys') > before, 'an unknown kid fetches the key set again');
    const oldToken = await issuer.issue('platform');
    assert.ok(user(await auth(s, oldToken)));
    issuer.rotate();
    const fresh = await issuer.issue('platform', { sub: 'rotated' });
    assert.equal(user(await auth(s, fresh)).username, `${issuer.url}#rotated`);
    refused(await auth(s, oldToken), /failed to verify signature/);
  });

  it('refuses tokens while the issuer is unreachable, then accepts them once it answers', async () => {
    issuer.available = false;
    let s: JwtSetup;
    try {
      s = setUpJwtAuthenticators({
        oidc: { issuerUrl: issuer.url, clientId: 'platform', caFile: join(dir, 'ca.pem') },
        provider: FAST,
        log: quiet,
      });
      setups.push(s);
      const t = await issuer.issue('platform');
      refused(await auth(s, t), /oidc: authenticator not initialized/);
    } finally {
      issuer.available = true;
    }
    await s.tokens!.members[0].provider.ready;
    assert.ok(user(await auth(s, await issuer.issue('platform'))));
  });

  it('a key set that cannot be fetched again keeps the known keys working', async () => {
    const s = await setup();
    issuer.available = false;
    try {
      assert.ok(user(await auth(s, await issuer.issue('platform'))));
      refused(
        await auth(s, await issuer.issue('platform', {}, { key: newIssuerKey() })),
        /failed to verify signature/,
      );
    } finally {
      issuer.available = true;
    }
  });

  it('refuses bad flags at start', () => {
    const start =
      (o: Partial<OidcOptions>, more: { configFile?: string } = {}) =>
      () =>
        setUpJwtAuthenticators({
          oidc: { issuerUrl: issuer.url, clientId: 'platform', ...o },
          log: quiet,
          ...more,
        });
    assert.throws(
      start({ clientId: undefined }),
      /oidc-issuer-url and oidc-client-id must be specified together/,
    );
    assert.throws(start({ issuerUrl: '' }), /oidc-issuer-url and oidc-client-id must be specified together/);
    assert.throws(start({ signingAlgs: ['HS256'] }), /oidc: unsupported signing alg: "HS256"/);
    assert.throws(
      start({ issuerUrl: 'http://127.0.0.1:1' }),
      /^AuthenticationConfigError: invalid authentication configuration: jwt\[0\]\.issuer\.url: Invalid value: "http:\/\/127\.0\.0\.1:1": URL scheme must be https$/,
    );
    assert.throws(
      start({}, { configFile: join(dir, 'x.yaml') }),
      /authentication-config file and oidc-\* flags are mutually exclusive/,
    );
    assert.throws(
      () =>
        setUpJwtAuthenticators({
          oidc: { issuerUrl: 'https://sa.example', clientId: 'x' },
          serviceAccountIssuers: ['https://sa.example'],
          log: quiet,
        }),
      /URL must not overlap with disallowed issuers: \[https:\/\/sa\.example\]/,
    );
  });
});
