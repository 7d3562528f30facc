// The server in-process over HTTPS: health, version, discovery, the request pipeline's errors, and
// authentication, each through real requests.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { groupName, namingProfile, UPSTREAM_ALIASES } from '../naming/profile.ts';
import { type ServerHandle, startServer } from './server.ts';
import { type Call, client } from './testing/index.ts';

const spec = namingProfile('spec');

const cmBody = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' }, ...extra });

describe('server over HTTPS', () => {
  let dir: string;
  let server: ServerHandle;
  let call: ReturnType<typeof client>;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiserver-test-server-'));
    writeFileSync(join(dir, 'tokens.csv'), 'secret-token,bob,1001,"dev,ops"\n');
    server = await startServer({ dataDir: dir, securePort: 0, tokenAuthFile: join(dir, 'tokens.csv') });
    await server.ready;
    call = client(server, dir);
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the admin client configuration with the server URL', () => {
    const text = readFileSync(server.adminConfigPath, 'utf8');
    assert.ok(server.adminConfigPath.endsWith(`admin.${spec.clientConfig}`));
    const doc = parseYaml(text);
    assert.equal(doc.clusters[0].cluster.server, server.url);
    assert.ok(doc.users[0].user['client-certificate-data']);
  });

  it('health endpoints answer anonymously, verbose and exclude as upstream', async () => {
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = await call({ path: p, anonymous: true });
      assert.deepEqual([r.status, r.body], [200, 'ok'], p);
    }
    const verbose = await call({ path: '/readyz?verbose', anonymous: true });
    assert.match(verbose.body, /^\[\+\]ping ok$/m);
    assert.match(verbose.body, /^\[\+\]storage ok$/m);
    assert.match(verbose.body, /^\[\+\]poststarthook\/start-system-namespaces-controller ok$/m);
    assert.match(verbose.body, /readyz check passed\n$/);
    const excluded = await call({ path: '/livez?verbose&exclude=log', anonymous: true });
    assert.match(excluded.body, /^\[\+\]log excluded: ok$/m);
    const one = await call({ path: '/livez/ping', anonymous: true });
    assert.deepEqual([one.status, one.body], [200, 'ok']);
    const missing = await call({ path: '/readyz/nope', anonymous: true });
    assert.equal(missing.status, 404);
  });

  it('/version has a semver gitVersion', async () => {
    const r = await call({ path: '/version', anonymous: true });
    assert.equal(r.status, 200);
    assert.match(String(r.json().gitVersion), /^v\d+\.\d+\.\d+(\+[0-9A-Za-z.-]+)?$/);
  });

  it('by default (Node,RBAC) anonymous requests read health and version, authenticated ones discovery and OpenAPI too, and nothing else', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) {
      const r = await call({ path, anonymous: true });
      assert.equal(r.status, 200, `${path}: ${r.body}`);
    }
    // system:discovery is bound to system:authenticated only, as the spec's default roles say.
    for (const path of [
      '/api',
      '/api/v1',
      '/apis',
      '/apis/apps/v1',
      '/openapi/v2',
      '/openapi/v3',
      '/openapi/v3/api/v1',
    ]) {
      const anonymous = await call({ path, anonymous: true });
      assert.equal(anonymous.status, 403, `${path}: ${anonymous.body}`);
      assert.equal(anonymous.json().message, `forbidden: User "system:anonymous" cannot get path "${path}"`);
      const bob = await call({ path, anonymous: true, headers: { authorization: 'Bearer secret-token' } });
      assert.equal(bob.status, 200, `${path}: ${bob.body}`);
    }
    const denied: [Call, string][] = [
      [
        { path: '/api/v1/namespaces', anonymous: true },
        'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      ],
      [
        { path: '/api/v1/namespaces/default/secrets/s', anonymous: true },
        'secrets "s" is forbidden: User "system:anonymous" cannot get resource "secrets" in API group "" in the namespace "default"',
      ],
      [
        {
          method: 'POST',
          path: '/api/v1/namespaces/default/secrets',
          anonymous: true,
          body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }),
        },
        'secrets is forbidden: User "system:anonymous" cannot create resource "secrets" in API group "" in the namespace "default"',
      ],
      [
        { method: 'DELETE', path: '/api/v1/namespaces/default', anonymous: true },
        // Upstream's request info takes a namespace's name as its namespace too.
        'namespaces "default" is forbidden: User "system:anonymous" cannot delete resource "namespaces" in API group "" in the namespace "default"',
      ],
      [
        { path: '/metrics', anonymous: true },
        'forbidden: User "system:anonymous" cannot get path "/metrics"',
      ],
    ];
    for (const [c, message] of denied) {
      const r = await call(c);
      assert.equal(r.status, 403, `${c.method ?? 'GET'} ${c.path}: ${r.body}`);
      assert.deepEqual([r.json().reason, r.json().message], ['Forbidden', message]);
    }
    // Nothing was written: the Secret does not exist and the namespace is not terminating.
    assert.equal((await call({ path: '/api/v1/namespaces/default/secrets/s' })).status, 404);
    const ns = (await call({ path: '/api/v1/namespaces/default' })).json() as { status: { phase: string } };
    assert.equal(ns.status.phase, 'Active');
  });

  it('authenticated users other than administrators may not write without a role (RBAC by default)', async () => {
    const r = await call({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      anonymous: true,
      headers: { authorization: 'Bearer secret-token' },
      body: cmBody('by-bob'),
    });
    assert.equal(r.status, 403, r.body);
    assert.equal(
      r.json().message,
      'configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default"',
    );
  });

  it('a bad bearer token is 401 with an Unauthorized Status; a good one works', async () => {
    const bad = await call({
      path: '/api/v1/namespaces',
      anonymous: true,
      headers: { authorization: 'Bearer nope' },
    });
    assert.equal(bad.status, 401);
    assert.deepEqual(
      [bad.json().kind, bad.json().reason, bad.json().message],
      ['Status', 'Unauthorized', 'Unauthorized'],
    );
    const good = await call({
      path: '/api',
      anonymous: true,
      headers: { authorization: 'Bearer secret-token' },
    });
    assert.equal(good.status, 200);
  });

  it('discovery: legacy documents and the aggregated one by Accept', async () => {
    const api = await call({ path: '/api' });
    assert.equal(api.json().kind, 'APIVersions');
    const v1 = await call({ path: '/api/v1' });
    const resources = v1.json().resources as { name: string; shortNames?: string[] }[];
    assert.ok(resources.some((r) => r.name === 'configmaps' && r.shortNames?.includes('cm')));
    assert.ok(resources.some((r) => r.name === 'namespaces/status'));
    const apis = await call({ path: '/apis' });
    const groups = (apis.json().groups as { name: string }[]).map((g) => g.name);
    assert.ok(groups.includes(groupName(spec, 'coordination')), groups.join(','));
    const accept = `application/json;g=${UPSTREAM_ALIASES.discoveryGroup};v=v2;as=APIGroupDiscoveryList,application/json`;
    const agg = await call({ path: '/apis', headers: { accept } });
    assert.equal(
      agg.headers['content-type'],
      `application/json;g=${UPSTREAM_ALIASES.discoveryGroup};v=v2;as=APIGroupDiscoveryList`,
    );
    assert.equal(agg.json().kind, 'APIGroupDiscoveryList');
    const specDoc = await call({
      path: '/api',
      headers: {
        accept: `application/json;g=${groupName(spec, 'apidiscovery')};v=v2;as=APIGroupDiscoveryList`,
      },
    });
    assert.equal(specDoc.json().apiVersion, `${groupName(spec, 'apidiscovery')}/v2`);
  });

  it('OpenAPI v2 and v3 are served', async () => {
    const v2 = await call({ path: '/openapi/v2' });
    assert.equal(v2.status, 200);
    assert.equal(v2.json().swagger, '2.0');
    const protobufOnly = await call({
      path: '/openapi/v2',
      headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    // kubectl's Accept: gnostic protobuf (src/server/openapi/serve-v2.test.ts checks the rest).
    assert.equal(protobufOnly.status, 200);
    assert.equal(
      protobufOnly.headers['content-type'],
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    );
    const index = await call({ path: '/openapi/v3' });
    const paths = index.json().paths as Record<string, { serverRelativeURL: string }>;
    assert.ok(paths['api/v1'], Object.keys(paths).join(','));
    const doc = await call({ path: paths['api/v1'].serverRelativeURL });
    assert.equal(doc.status, 200);
    assert.match(String(doc.json().openapi), /^3\./);
  });

  it('create, get, list, update, delete a config map over HTTP/1.1', async () => {
    const created = await call({
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps',
      body: cmBody('a'),
    });
    assert.equal(created.status, 201, created.body);
    const obj = created.json() as { metadata: { resourceVersion: string; uid: string } };
    const got = await call({ path: '/api/v1/namespaces/default/configmaps/a' });
    assert.equal(got.json().kind, 'ConfigMap');
    const list = await call({ path: '/api/v1/configmaps' });
    assert.equal(list.json().kind, 'ConfigMapList');
    const stale = await call({
      method: 'PUT',
      path: '/api/v1/namespaces/default/configmaps/a',
      body: cmBody('a', { metadata: { name: 'a', resourceVersion: '1' }, data: { k: 'w' } }),
    });
    assert.equal(stale.status, 409, stale.body);
    const put = await call({
      method: 'PUT',
      path: '/api/v1/namespaces/default/configmaps/a',
      body: cmBody('a', {
        metadata: { name: 'a', resourceVersion: obj.metadata.resourceVersion },
        data: { k: 'w' },
      }),
    });
    assert.equal(put.status, 200, put.body);
    const yaml = await call({
      path: '/api/v1/namespaces/default/configmaps/a',
      headers: { accept: 'application/yaml' },
    });
    assert.equal(yaml.headers['content-type'], 'application/yaml');
    assert.match(yaml.body, /^ {2}k: w$/m);
    const del = await call({ method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/a' });
    assert.equal(del.status, 200);
    assert.equal(del.json().status, 'Success');
  });

  it('pretty=true indents JSON', async () => {
    const r = await call({ path: '/api/v1/namespaces/default?pretty=true' });
    assert.match(r.body, /^\{\n {2}"kind": "Namespace",/);
  });

  it('a Table when kubectl asks for one', async () => {
    const r = await call({
      path: '/api/v1/namespaces',
      headers: { accept: `application/json;as=Table;v=v1;g=${UPSTREAM_ALIASES.metaGroup},application/json` },
    });
    const t = r.json() as { kind: string; apiVersion: string; columnDefinitions: { name: string }[] };
    assert.equal(t.kind, 'Table');
    assert.equal(t.apiVersion, `${UPSTREAM_ALIASES.metaGroup}/v1`);
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Status', 'Age'],
    );
  });

  it('the same over HTTP/2', async () => {
    const session = connect(server.url, {
      ca: readFileSync(join(dir, 'ca.crt')),
      cert: readFileSync(join(dir, 'admin.crt')),
      key: readFileSync(join(dir, 'admin.key')),
    });
    try {
      const body = await new Promise<string>((res, rej) => {
        const s = session.request({ ':path': '/api/v1/namespaces/default' });
        let out = '';
        s.setEncoding('utf8');
        s.on('data', (d) => {
          out += d;
        });
        s.on('end', () => res(out));
        s.on('error', rej);
      });
      assert.equal(JSON.parse(body).metadata.name, 'default');
    } finally {
      session.close();
    }
  });

  describe('bad input: a Status with the right code, and nothing stored', () => {
    const count = async () =>
      ((await call({ path: '/api/v1/namespaces/default/configmaps' })).json().items as unknown[]).length;

    const cases: [string, Call, number, RegExp][] = [
      [
        'malformed JSON',
        { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '{"kind":' },
        400,
        /the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error/,
      ],
      [
        'malformed YAML',
        {
          method: 'POST',
          path: '/api/v1/namespaces/default/configmaps',
          body: 'a: [',
          headers: { 'content-type': 'application/yaml' },
        },
        400,
        /error converting YAML to JSON/,
      ],
      [
        'a kind that does not match the path',
        {
          method: 'POST',
          path: '/api/v1/namespaces/default/configmaps',
          body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } }),
        },
        400,
        /kind/,
      ],
      [
        'an apiVersion that does not match the path',
        {
          method: 'POST',
          path: '/api/v1/namespaces/default/configmaps',
          body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x' } }),
        },
        400,
        /the API version in the data \(apps\/v1\) does not match the expected API version \(v1\)/,
      ],
      [
        'a body name different from the URL',
        { method: 'PUT', path: '/api/v1/namespaces/default/configmaps/one', body: cmBody('two') },
        400,
        /the name of the object \(two\) does not match the name on the URL \(one\)/,
      ],
      [
        'an invalid name',
        { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: cmBody('Not_Valid') },
        422,
        /ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid"/,
      ],
      [
        'a body over the size limit',
        {
          method: 'POST',
          path: '/api/v1/namespaces/default/configmaps',
          body: cmBody('big', { data: { k: 'x'.repeat(3.5 * 1024 * 1024) } }),
        },
        413,
        /Request entity too large: limit is 3145728/,
      ],
      [
        'an unknown resource',
        { path: '/api/v1/widgets' },
        404,
        /the server could not find the requested resource/,
      ],
      [
        'an unknown group',
        { path: '/apis/nope.example/v1/things' },
        404,
        /the server could not find the requested resource/,
      ],
      [
        'an unsupported verb',
        { method: 'DELETE', path: '/api/v1/namespaces' },
        405,
        /deletecollection is not supported on resources of kind "namespaces"/,
      ],
      [
        'an unsupported Content-Type',
        {
          method: 'POST',
          path: '/api/v1/namespaces/default/configmaps',
          body: cmBody('x'),
          headers: { 'content-type': 'text/plain' },
        },
        415,
        /the body of the request was in an unknown format - accepted media types include: application\/json, application\/yaml/,
      ],
      [
        'an Accept nothing can serve',
        { path: '/api/v1/namespaces', headers: { accept: 'text/html' } },
        406,
        /only the following media types are accepted/,
      ],
      [
        'strict field validation',
        {
          method: 'POST',
          path: '/api/v1/namespaces/default/configmaps?fieldValidation=Strict',
          body: cmBody('x', { bogus: 1 }),
        },
        400,
        /strict decoding error: unknown field "bogus"/,
      ],
      [
        'a create in a missing namespace',
        { method: 'POST', path: '/api/v1/namespaces/nope/configmaps', body: cmBody('x') },
        404,
        /namespaces "nope" not found/,
      ],
      [
        'deleting a system namespace',
        { method: 'DELETE', path: '/api/v1/namespaces/default' },
        403,
        /namespaces "default" is forbidden: this namespace may not be deleted/,
      ],
    ];
    for (const [name, c, code, message] of cases) {
      it(name, async () => {
        const before = await count();
        const r = await call(c);
        assert.equal(r.status, code, r.body);
        const s = r.json();
        assert.equal(s.kind, 'Status');
        assert.equal(s.code, code);
        assert.match(String(s.message), message);
        assert.equal(await count(), before);
      });
    }
  });
});
