// The authentication group through a real server: TokenReview with a static token file (accepted,
// refused, missing, with audiences), SelfSubjectReview as anonymous, certificate and token users,
// both under the profile's group and its upstream-named alias, in JSON and protobuf; their
// discovery entries and OpenAPI operations; and the user's extra through protobuf's ExtraValue.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeProtobuf, encodeProtobuf } from '../../codec/protobuf/index.ts';
import { groupName, namingProfile, UPSTREAM_ALIASES } from '../../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from '../../server/testing/index.ts';
import { selfSubjectReviewKind, tokenReviewKind } from './index.ts';

const spec = namingProfile('spec');
const GROUP = groupName(spec, 'authentication');
const UPSTREAM_GROUP = groupName(namingProfile('upstream'), 'authentication');
const TOKEN = 'secret-token';

type Json = Record<string, unknown>;

describe('authentication API', () => {
  let ts: TestApiServer;
  // The token file lives outside the server's data directory, which the server creates itself.
  const tokens = mkdtempSync(join(tmpdir(), 'authn-api-tokens-'));
  before(async () => {
    writeFileSync(join(tokens, 'tokens.csv'), `${TOKEN},bob,1001,"dev,ops"\n`);
    ts = await startTestApiServer({
      // Anonymous users may ask who they are only where authorization lets them (the default
      // chain, like upstream's RBAC, gives them no create at all).
      authorizationModes: ['AlwaysAllow'],
      tokenAuthFile: join(tokens, 'tokens.csv'),
    });
  });
  after(async () => {
    await ts.stop();
    rmSync(tokens, { recursive: true, force: true });
  });

  const review = async (group: string, body: Json, headers: Record<string, string> = {}) =>
    ts.call({
      method: 'POST',
      path: `/apis/${group}/v1/tokenreviews`,
      body: JSON.stringify(body),
      headers,
    });
  const tokenReview = (token: string, extra: Json = {}) => ({
    apiVersion: `${GROUP}/v1`,
    kind: 'TokenReview',
    spec: { token, ...extra },
  });

  it('TokenReview accepts a static token and names its user', async () => {
    const r = await review(GROUP, tokenReview(TOKEN));
    assert.equal(r.status, 201, r.body);
    const body = r.json();
    assert.equal(body.apiVersion, `${GROUP}/v1`);
    assert.equal(body.kind, 'TokenReview');
    const status = body.status as Json;
    assert.equal(status.authenticated, true);
    assert.deepEqual(status.user, {
      username: 'bob',
      uid: '1001',
      groups: ['dev', 'ops', 'system:authenticated'],
    });
    assert.equal(status.error, undefined);
  });

  it('TokenReview: a token that does not deal in audiences is good for those asked', async () => {
    const r = await review(GROUP, tokenReview(TOKEN, { audiences: ['vault', 'other'] }));
    assert.equal(r.status, 201, r.body);
    assert.deepEqual((r.json().status as Json).audiences, ['vault', 'other']);
  });

  it('TokenReview refuses an unknown token with authenticated unset and the reason', async () => {
    const r = await review(GROUP, tokenReview('not-a-token'));
    assert.equal(r.status, 201, r.body);
    const status = r.json().status as Json;
    assert.equal(status.authenticated, undefined);
    assert.deepEqual(status.user, {});
    assert.equal(status.error, 'invalid bearer token');
  });

  it('TokenReview without a token is a 400, as upstream words it', async () => {
    const r = await review(GROUP, { apiVersion: `${GROUP}/v1`, kind: 'TokenReview', spec: {} });
    assert.equal(r.status, 400, r.body);
    assert.equal(r.json().reason, 'BadRequest');
    assert.equal(r.json().message, 'token is required for TokenReview in authentication');
  });

  it('TokenReview under the upstream group name answers in that group, and takes either apiVersion', async () => {
    const up = await review(UPSTREAM_GROUP, { ...tokenReview(TOKEN), apiVersion: `${UPSTREAM_GROUP}/v1` });
    assert.equal(up.status, 201, up.body);
    assert.equal(up.json().apiVersion, `${UPSTREAM_GROUP}/v1`);
    assert.equal((up.json().status as Json).authenticated, true);
    const crossed = await review(UPSTREAM_GROUP, tokenReview(TOKEN));
    assert.equal(crossed.status, 201, crossed.body);
    assert.equal(crossed.json().apiVersion, `${UPSTREAM_GROUP}/v1`);
    const other = await review(GROUP, { ...tokenReview(TOKEN), apiVersion: 'example.com/v1' });
    assert.equal(other.status, 400, other.body);
  });

  it('TokenReview serves create alone: reads are 405', async () => {
    const list = await ts.call({ path: `/apis/${GROUP}/v1/tokenreviews` });
    assert.equal(list.status, 405, list.body);
    assert.equal(list.json().reason, 'MethodNotAllowed');
    const get = await ts.call({ path: `/apis/${UPSTREAM_GROUP}/v1/tokenreviews/x` });
    assert.equal(get.status, 405, get.body);
  });

  const whoami = (group: string, how: { anonymous?: boolean; token?: string } = {}) =>
    ts.call({
      method: 'POST',
      path: `/apis/${group}/v1/selfsubjectreviews`,
      body: JSON.stringify({ apiVersion: `${group}/v1`, kind: 'SelfSubjectReview' }),
      anonymous: how.anonymous === true || how.token !== undefined,
      headers: how.token === undefined ? {} : { authorization: `Bearer ${how.token}` },
    });

  it('SelfSubjectReview names the certificate user', async () => {
    const r = await whoami(GROUP);
    assert.equal(r.status, 201, r.body);
    const body = r.json();
    assert.equal(body.apiVersion, `${GROUP}/v1`);
    assert.equal(body.kind, 'SelfSubjectReview');
    assert.match(String((body.metadata as Json).creationTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual((body.status as Json).userInfo, {
      username: 'admin',
      groups: ['system:masters', 'system:authenticated'],
    });
  });

  it('SelfSubjectReview names the token user with its uid, under either group name', async () => {
    for (const group of [GROUP, UPSTREAM_GROUP]) {
      const r = await whoami(group, { token: TOKEN });
      assert.equal(r.status, 201, r.body);
      assert.equal(r.json().apiVersion, `${group}/v1`);
      assert.deepEqual((r.json().status as Json).userInfo, {
        username: 'bob',
        uid: '1001',
        groups: ['dev', 'ops', 'system:authenticated'],
      });
    }
  });

  it('SelfSubjectReview names the anonymous user', async () => {
    const r = await whoami(GROUP, { anonymous: true });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual((r.json().status as Json).userInfo, {
      username: 'system:anonymous',
      groups: ['system:unauthenticated'],
    });
  });

  it('SelfSubjectReview in protobuf, as stock clients send it to the upstream-named path', async () => {
    const kind = selfSubjectReviewKind(namingProfile('upstream'));
    const body = encodeProtobuf(kind.schema, {
      apiVersion: `${UPSTREAM_GROUP}/v1`,
      kind: 'SelfSubjectReview',
      metadata: {},
    });
    const r = await ts.call({
      method: 'POST',
      path: `/apis/${UPSTREAM_GROUP}/v1/selfsubjectreviews`,
      body,
      headers: {
        'content-type': UPSTREAM_ALIASES.protobufMediaType,
        accept: `${UPSTREAM_ALIASES.protobufMediaType}, application/json`,
      },
    });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.headers['content-type'], UPSTREAM_ALIASES.protobufMediaType);
    const back = decodeProtobuf(() => kind.schema, r.bytes) as Json;
    assert.equal(back.apiVersion, `${UPSTREAM_GROUP}/v1`);
    assert.equal(((back.status as Json).userInfo as Json).username, 'admin');
  });

  it('discovery lists both kinds with create alone, under the profile group and its alias', async () => {
    const doc = (await ts.call({ path: `/apis/${GROUP}/v1` })).json();
    const resources = doc.resources as Json[];
    assert.deepEqual(
      resources.map((r) => [r.name, r.singularName, r.namespaced, r.kind, r.verbs]),
      [
        ['tokenreviews', 'tokenreview', false, 'TokenReview', ['create']],
        ['selfsubjectreviews', 'selfsubjectreview', false, 'SelfSubjectReview', ['create']],
      ],
    );
    // The upstream-named alias is advertised too, with the same resources.
    const alias = (await ts.call({ path: `/apis/${UPSTREAM_GROUP}/v1` })).json();
    assert.deepEqual(
      (alias.resources as Json[]).map((r) => [r.name, r.kind, r.verbs]),
      [
        ['tokenreviews', 'TokenReview', ['create']],
        ['selfsubjectreviews', 'SelfSubjectReview', ['create']],
      ],
    );
  });

  it('OpenAPI has the POST operations and the schemas', async () => {
    const r = await ts.call({ path: `/openapi/v3/apis/${GROUP}/v1` });
    assert.equal(r.status, 200, r.body);
    const doc = r.json() as { paths: Record<string, Json>; components: { schemas: Record<string, Json> } };
    const post = doc.paths[`/apis/${GROUP}/v1/tokenreviews`]?.post as Json | undefined;
    assert.ok(post, Object.keys(doc.paths).join(' '));
    assert.equal(doc.paths[`/apis/${GROUP}/v1/tokenreviews`].get, undefined);
    assert.ok(doc.paths[`/apis/${GROUP}/v1/selfsubjectreviews`]?.post);
    const names = Object.keys(doc.components.schemas);
    assert.ok(
      names.some((n) => n.endsWith('.TokenReview')),
      names.join(' '),
    );
    assert.ok(
      names.some((n) => n.endsWith('.UserInfo')),
      names.join(' '),
    );
  });
});

describe('UserInfo extra through protobuf', () => {
  it('each extra value travels as its own message and comes back as a list', () => {
    const kind = tokenReviewKind(spec);
    const obj = {
      apiVersion: `${GROUP}/v1`,
      kind: 'TokenReview',
      metadata: {},
      spec: { token: 't', audiences: ['a'] },
      status: {
        authenticated: true,
        user: { username: 'u', uid: '1', groups: ['g'], extra: { 'example.com/a': ['x', 'y'], b: [] } },
        audiences: ['a'],
        error: 'e',
      },
    };
    const back = decodeProtobuf(() => kind.schema, encodeProtobuf(kind.schema, obj)) as Json;
    assert.deepEqual((back.status as Json).user, obj.status.user);
    assert.deepEqual(back.spec, obj.spec);
    assert.equal((back.status as Json).error, 'e');
  });
});
