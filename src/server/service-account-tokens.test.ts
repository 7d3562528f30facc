import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { signingKeyOf } from '../auth/authn/keys.ts';
import { issuerProblem, jwks, openIdConfiguration } from './issuer-discovery.ts';
import { startTestApiServer, type TestApiServer } from './testing/http-client.ts';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';

describe('issuer discovery documents', () => {
  it('list every key with upstream members and the algorithms sorted', () => {
    const rsa = signingKeyOf(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    const ec = signingKeyOf(generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey);
    const set = jwks([rsa, ec]) as { keys: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(set.keys[0]), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
    assert.deepEqual(Object.keys(set.keys[1]), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    assert.equal(set.keys[1].alg, 'ES512');
    assert.equal(set.keys[1].crv, 'P-521');
    const doc = openIdConfiguration({ issuer: ISSUER, externalAddress: () => 'h:1', keys: [rsa, ec] });
    assert.deepEqual(doc, {
      issuer: ISSUER,
      jwks_uri: 'https://h:1/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES512', 'RS256'],
    });
    const given = openIdConfiguration({
      issuer: ISSUER,
      jwksUri: 'https://cdn.example/jwks',
      externalAddress: () => 'h:1',
      keys: [rsa],
    });
    assert.equal(given.jwks_uri, 'https://cdn.example/jwks');
  });

  it('an issuer that is not a plain https URL is not published', () => {
    assert.equal(issuerProblem(ISSUER), undefined);
    assert.match(issuerProblem('kubernetes/serviceaccount') ?? '', /must use https scheme/);
    assert.match(issuerProblem('http://x') ?? '', /must use https scheme/);
    assert.match(issuerProblem('https://x/?a=b') ?? '', /may not include a query/);
  });
});

describe('serviceaccounts/token on a server', () => {
  let ts: TestApiServer;
  before(async () => {
    ts = await startTestApiServer();
    const r = await ts.call({
      method: 'POST',
      path: '/api/v1/namespaces/default/serviceaccounts',
      body: JSON.stringify({ metadata: { name: 'robot' } }),
    });
    assert.equal(r.status, 201, r.body);
  });
  after(() => ts.stop());

  const post = (body: unknown, path = '/api/v1/namespaces/default/serviceaccounts/robot/token') =>
    ts.call({ method: 'POST', path, body: JSON.stringify(body) });

  it('answers a TokenRequest in the group it was posted in, with 201', async () => {
    for (const group of ['authentication.svc.io', 'authentication.k8s.io']) {
      const r = await post({ apiVersion: `${group}/v1`, kind: 'TokenRequest', spec: {} });
      assert.equal(r.status, 201, r.body);
      const obj = r.json() as { apiVersion: string; status: { token: string } };
      assert.equal(obj.apiVersion, `${group}/v1`);
      assert.equal(obj.status.token.split('.').length, 3);
    }
    const wrong = await post({ apiVersion: 'v1', kind: 'TokenRequest', spec: {} });
    assert.equal(wrong.status, 400);
    assert.match(wrong.json().message as string, /does not match the expected API version/);
  });

  it('serves create alone, is listed in discovery, and 404s for a missing service account', async () => {
    const get = await ts.call({ path: '/api/v1/namespaces/default/serviceaccounts/robot/token' });
    assert.equal(get.status, 405);
    const list = await ts.call({ path: '/api/v1' });
    const resources = (list.json() as { resources: Record<string, unknown>[] }).resources;
    const token = resources.find((r) => r.name === 'serviceaccounts/token');
    assert.deepEqual(
      { group: token?.group, version: token?.version, kind: token?.kind, verbs: token?.verbs },
      { group: 'authentication.svc.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] },
    );
    const missing = await post({ spec: {} }, '/api/v1/namespaces/default/serviceaccounts/ghost/token');
    assert.equal(missing.status, 404);
  });

  it('the token is a bearer credential; unsigned and garbled ones are 401, discovery is for the authenticated', async () => {
    const token = ((await post({ spec: {} })).json() as { status: { token: string } }).status.token;
    // Discovery is what the default policy grants every authenticated user.
    const as = (t: string, path = '/api') =>
      ts.call({ path, anonymous: true, headers: { authorization: `Bearer ${t}` } });
    assert.equal((await as(token)).status, 200);
    const [, payload] = token.split('.');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    const refused = await as(none);
    assert.equal(refused.status, 401);
    assert.equal(refused.json().reason, 'Unauthorized');
    assert.equal((await as('garbage')).status, 401);
    assert.equal((await as(token, '/.well-known/openid-configuration')).status, 200);
    assert.equal((await as(token, '/openid/v1/jwks')).status, 200);
    const anonymous = await ts.call({ path: '/openid/v1/jwks', anonymous: true });
    assert.equal(anonymous.status, 403);
  });
});
