import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { CompactSign } from 'jose';
import { namingProfile } from '../../naming/profile.ts';
import { serviceAccountNames } from '../../naming/service-accounts.ts';
import { signingKeyOf } from './keys.ts';
import { BoundTokenValidator } from './service-account.ts';
import { type BoundTokenRequest, ServiceAccountTokenIssuer } from './service-account-issuer.ts';
import { ServiceAccountJwtAuthenticator } from './service-account-jwt.ts';
import {
  LEGACY_SERVICE_ACCOUNT_ISSUER,
  LegacyTokenValidator,
  legacyClaims,
} from './service-account-legacy.ts';
import type { ObjectReader, TokenResult } from './types.ts';

const ISSUER = 'https://issuer.example';
const API = ['https://api.example'];
const names = serviceAccountNames(namingProfile('spec'));
const upstreamNames = serviceAccountNames(namingProfile('upstream'));
const rsa = signingKeyOf(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
const ec = signingKeyOf(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey);
const other = signingKeyOf(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);

/** Objects by `resource/namespace/name`. */
class Objects implements ObjectReader {
  readonly map = new Map<string, Record<string, unknown>>();
  put(resource: string, namespace: string, name: string, uid: string, extra: Record<string, unknown> = {}) {
    this.map.set(`${resource}/${namespace}/${name}`, { metadata: { name, namespace, uid }, ...extra });
  }
  delete(resource: string, namespace: string, name: string) {
    this.map.delete(`${resource}/${namespace}/${name}`);
  }
  async get(_g: string, _v: string, resource: string, namespace: string, name: string) {
    return this.map.get(`${resource}/${namespace}/${name}`);
  }
}

function setup(opts: { now?: () => number; lookup?: boolean } = {}) {
  const objects = new Objects();
  objects.put('serviceaccounts', 'ns', 'sa', 'sa-uid');
  const now = opts.now ?? Date.now;
  const issuer = new ServiceAccountTokenIssuer(ISSUER, rsa, names, now);
  const keys = () => [rsa, ec];
  const bound = new ServiceAccountJwtAuthenticator({
    issuers: [ISSUER, 'https://old.example'],
    keys,
    implicitAudiences: API,
    validator: new BoundTokenValidator(objects, names, now),
  });
  const legacy = new ServiceAccountJwtAuthenticator({
    issuers: [LEGACY_SERVICE_ACCOUNT_ISSUER],
    keys,
    implicitAudiences: API,
    validator: new LegacyTokenValidator(objects, names, opts.lookup ?? true),
  });
  const request = (over: Partial<BoundTokenRequest> = {}): BoundTokenRequest => ({
    namespace: 'ns',
    serviceAccount: { name: 'sa', uid: 'sa-uid' },
    audiences: API,
    expirationSeconds: 3600,
    ...over,
  });
  return { objects, issuer, bound, legacy, request };
}

const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());
const errorOf = (r: TokenResult) =>
  r !== null && 'error' in r ? r.error : `not an error: ${JSON.stringify(r)}`;

describe('bound service account tokens', () => {
  it('carry upstream claims, sorted, with the private claim under the profile domain', async () => {
    const { issuer, request } = setup({ now: () => 1_700_000_000_500 });
    const t = await issuer.issue(
      request({ pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: '' }, warnAfterSeconds: 3607 }),
    );
    const p = payloadOf(t.token);
    assert.deepEqual(Object.keys(p), ['aud', 'exp', 'iat', 'iss', 'jti', 'nbf', 'platform.io', 'sub']);
    assert.deepEqual(p.aud, API);
    assert.equal(p.iat, 1_700_000_000);
    assert.equal(p.nbf, 1_700_000_000);
    assert.equal(p.exp, 1_700_003_600);
    assert.equal(p.iss, ISSUER);
    assert.equal(p.sub, 'system:serviceaccount:ns:sa');
    assert.match(p.jti, /^[0-9a-f-]{36}$/);
    assert.deepEqual(p['platform.io'], {
      namespace: 'ns',
      node: { name: 'n' },
      pod: { name: 'p', uid: 'p-uid' },
      serviceaccount: { name: 'sa', uid: 'sa-uid' },
      warnafter: 1_700_003_607,
    });
    assert.deepEqual(headerOf(t.token), { alg: 'RS256', kid: rsa.kid });
    const up = new ServiceAccountTokenIssuer(ISSUER, ec, upstreamNames);
    const u = await up.issue(request());
    assert.ok('kubernetes.io' in payloadOf(u.token));
    assert.deepEqual(headerOf(u.token), { alg: 'ES384', kid: ec.kid });
  });

  it('authenticate as the service account, with groups, uid, the granted audiences and extra', async () => {
    const { objects, issuer, bound, request } = setup();
    objects.put('pods', 'ns', 'p', 'p-uid');
    const t = await issuer.issue(
      request({ pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: 'n-uid' } }),
    );
    const r = await bound.authenticateToken(t.token, API);
    assert.deepEqual(r, {
      user: {
        username: 'system:serviceaccount:ns:sa',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
        extra: {
          'authentication.platform.io/pod-name': ['p'],
          'authentication.platform.io/pod-uid': ['p-uid'],
          'authentication.platform.io/credential-id': [`JTI=${t.jti}`],
          'authentication.platform.io/node-name': ['n'],
          'authentication.platform.io/node-uid': ['n-uid'],
        },
      },
      audiences: API,
    });
    // An ECDSA key among the verifying keys verifies too.
    const ecIssuer = new ServiceAccountTokenIssuer(ISSUER, ec, names);
    const e = await bound.authenticateToken((await ecIssuer.issue(request())).token, API);
    assert.equal(e !== null && 'user' in e && e.user.username, 'system:serviceaccount:ns:sa');
  });

  it('audiences: only those asked for that the token names are granted; none is a refusal', async () => {
    const { issuer, bound, request } = setup();
    const t = (await issuer.issue(request({ audiences: ['a', 'b'] }))).token;
    const r = await bound.authenticateToken(t, ['b', 'c']);
    assert.deepEqual(r !== null && 'user' in r && r.audiences, ['b']);
    assert.equal(
      errorOf(await bound.authenticateToken(t, API)),
      'token audiences ["a" "b"] is invalid for the target audiences ["https://api.example"]',
    );
  });

  it('expiry and not-before are checked with a minute of leeway', async () => {
    let now = 1_700_000_000_000;
    const { issuer, bound, request } = setup({ now: () => now });
    const t = (await issuer.issue(request({ expirationSeconds: 600 }))).token;
    now += 600_000 + 59_000;
    assert.ok((await bound.authenticateToken(t, API)) !== null);
    now += 2_000;
    assert.equal(errorOf(await bound.authenticateToken(t, API)), 'service account token has expired');
    now = 1_700_000_000_000 - 61_000;
    assert.equal(errorOf(await bound.authenticateToken(t, API)), 'service account token is not valid yet');
  });

  it('lookup: a deleted, recreated or deleting service account, or a gone bound object, refuses the token', async () => {
    const { objects, issuer, bound, request } = setup();
    objects.put('pods', 'ns', 'p', 'p-uid');
    objects.put('secrets', 'ns', 's', 's-uid');
    objects.put('nodes', '', 'n', 'n-uid');
    const plain = (await issuer.issue(request())).token;
    const pod = (await issuer.issue(request({ pod: { name: 'p', uid: 'p-uid' } }))).token;
    const secret = (await issuer.issue(request({ secret: { name: 's', uid: 's-uid' } }))).token;
    const node = (await issuer.issue(request({ node: { name: 'n', uid: 'n-uid' } }))).token;
    for (const t of [plain, pod, secret, node]) assert.ok((await bound.authenticateToken(t, API)) !== null);

    objects.put('pods', 'ns', 'p', 'p-uid2');
    assert.equal(
      errorOf(await bound.authenticateToken(pod, API)),
      'pod UID (p-uid2) does not match service account pod ref claim (p-uid)',
    );
    objects.delete('pods', 'ns', 'p');
    assert.equal(
      errorOf(await bound.authenticateToken(pod, API)),
      'service account token has been invalidated',
    );
    objects.delete('secrets', 'ns', 's');
    assert.equal(
      errorOf(await bound.authenticateToken(secret, API)),
      'service account token has been invalidated',
    );
    objects.put('nodes', '', 'n', 'n-uid2');
    assert.equal(
      errorOf(await bound.authenticateToken(node, API)),
      'node UID (n-uid2) does not match service account node ref claim (n-uid)',
    );

    objects.put('serviceaccounts', 'ns', 'sa', 'sa-uid', {
      metadata: { name: 'sa', namespace: 'ns', uid: 'sa-uid', deletionTimestamp: '2000-01-01T00:00:00Z' },
    });
    assert.equal(
      errorOf(await bound.authenticateToken(plain, API)),
      'service account ns/sa has been deleted',
    );
    objects.put('serviceaccounts', 'ns', 'sa', 'other-uid');
    assert.equal(
      errorOf(await bound.authenticateToken(plain, API)),
      'service account UID (other-uid) does not match claim (sa-uid)',
    );
    objects.delete('serviceaccounts', 'ns', 'sa');
    assert.equal(errorOf(await bound.authenticateToken(plain, API)), 'serviceaccounts "sa" not found');
  });

  it('tampered, unsigned, wrongly signed, HMAC-with-public-key and foreign tokens are refused', async () => {
    const { issuer, bound, request } = setup();
    const t = (await issuer.issue(request())).token;
    const [h, p, s] = t.split('.');
    const claims = payloadOf(t);
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:ns:admin' })).toString(
      'base64url',
    );
    assert.equal(
      errorOf(await bound.authenticateToken(`${h}.${forged}.${s}`, API)),
      'go-jose/go-jose: error in cryptographic primitive',
    );
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    assert.equal(await bound.authenticateToken(`${none}.${p}.`, API), null);
    const foreign = new ServiceAccountTokenIssuer(ISSUER, other, names);
    assert.match(
      errorOf(await bound.authenticateToken((await foreign.issue(request())).token, API)),
      /cryptographic/,
    );
    const hmac = await new CompactSign(Buffer.from(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(rsa.key.export({ format: 'der', type: 'spki' }));
    assert.match(errorOf(await bound.authenticateToken(hmac, API)), /cryptographic/);
    const elsewhere = new ServiceAccountTokenIssuer('https://elsewhere.example', rsa, names);
    assert.equal(await bound.authenticateToken((await elsewhere.issue(request())).token, API), null);
    assert.equal(await bound.authenticateToken('not-a-jwt', API), null);
    assert.equal(await bound.authenticateToken('a.b.c', API), null);
  });

  it('every configured issuer is accepted; the first is the one that issues', async () => {
    const { bound, request } = setup();
    const old = new ServiceAccountTokenIssuer('https://old.example', rsa, names);
    const r = await bound.authenticateToken((await old.issue(request())).token, API);
    assert.ok(r !== null && 'user' in r);
  });
});

describe('legacy service account tokens', () => {
  const legacyToken = async (sa = { namespace: 'ns', name: 'sa', uid: 'sa-uid' }, secret = 'sa-token') =>
    new ServiceAccountTokenIssuer(ISSUER, rsa, names).sign(legacyClaims(names, sa, secret));

  it('authenticate while their Secret holds them and the service account is the same', async () => {
    const { objects, legacy } = setup();
    const token = await legacyToken();
    objects.put('secrets', 'ns', 'sa-token', 's-uid', {
      type: names.tokenSecretType,
      data: { token: Buffer.from(token).toString('base64') },
    });
    assert.deepEqual(await legacy.authenticateToken(token, API), {
      user: {
        username: 'system:serviceaccount:ns:sa',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
      },
      audiences: API,
    });
    objects.put('secrets', 'ns', 'sa-token', 's-uid', {
      data: { token: Buffer.from('other').toString('base64') },
    });
    assert.equal(errorOf(await legacy.authenticateToken(token, API)), "Token does not match server's copy");
    objects.put('secrets', 'ns', 'sa-token', 's-uid', {
      metadata: { name: 'sa-token', labels: { [names.legacyInvalidSinceLabel]: '2024-01-01' } },
      data: { token: Buffer.from(token).toString('base64') },
    });
    assert.equal(errorOf(await legacy.authenticateToken(token, API)), 'Token has been invalidated');
    objects.delete('secrets', 'ns', 'sa-token');
    assert.equal(errorOf(await legacy.authenticateToken(token, API)), 'Token has been invalidated');
  });

  it('a recreated service account refuses the old token; without lookup only the signature counts', async () => {
    const { objects, legacy } = setup();
    const token = await legacyToken();
    objects.put('secrets', 'ns', 'sa-token', 's-uid', {
      data: { token: Buffer.from(token).toString('base64') },
    });
    objects.put('serviceaccounts', 'ns', 'sa', 'new-uid');
    assert.equal(
      errorOf(await legacy.authenticateToken(token, API)),
      'ServiceAccount UID (new-uid) does not match claim (sa-uid)',
    );
    const noLookup = setup({ lookup: false });
    noLookup.objects.delete('serviceaccounts', 'ns', 'sa');
    const r = await noLookup.legacy.authenticateToken(token, API);
    assert.ok(r !== null && 'user' in r);
  });

  it('a subject that does not match the claims is refused', async () => {
    const { legacy } = setup();
    const claims = {
      ...legacyClaims(names, { namespace: 'ns', name: 'sa', uid: 'u' }, 's'),
      sub: 'system:serviceaccount:ns:other',
    };
    const token = await new ServiceAccountTokenIssuer(ISSUER, rsa, names).sign(claims);
    assert.equal(errorOf(await legacy.authenticateToken(token, API)), 'sub claim is invalid');
  });
});
