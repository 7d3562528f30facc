// Upstream-named group aliases through a real server: a Lease written under one group name is the
// same object under the other, answered in the group of the path (get, list, update, watch,
// protobuf), bodies accepted in either apiVersion; aliases are advertised in discovery and OpenAPI
// after the canonical groups (so kind mapping finds upstream-named manifests' kinds);
// authorization decides on the canonical group; a stock typed client (client-node's
// CoordinationV1Api, on the upstream name as client-go's leader election is) does the
// leader-election round trip. Under the upstream profile there are no aliases.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { leaseKind } from '../apis/coordination/lease.ts';
import { decodeProtobuf } from '../codec/protobuf/index.ts';
import { upstreamGroupAlias } from '../naming/group-aliases.ts';
import { groupName, namingProfile, UPSTREAM_ALIASES } from '../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';

type Json = Record<string, unknown>;
const spec = namingProfile('spec');
const upstream = namingProfile('upstream');
const OWN = groupName(spec, 'coordination');
const UP = groupName(upstream, 'coordination');
const leases = (group: string, ns = 'default') => `/apis/${group}/v1/namespaces/${ns}/leases`;
const lease = (group: string, name: string, holder: string) =>
  JSON.stringify({
    apiVersion: `${group}/v1`,
    kind: 'Lease',
    metadata: { name },
    spec: { holderIdentity: holder },
  });

describe('naming: upstream group aliases', () => {
  it('swap the profile domain for upstream and leave other groups alone', () => {
    assert.equal(upstreamGroupAlias(spec, OWN), UP);
    assert.equal(upstreamGroupAlias(spec, 'apps'), undefined);
    assert.equal(upstreamGroupAlias(spec, ''), undefined);
    assert.equal(upstreamGroupAlias(upstream, UP), undefined);
  });
});

describe('group aliases under the spec profile', () => {
  let ts: TestApiServer;
  before(async () => {
    ts = await startTestApiServer();
  });
  after(() => ts.stop());

  it('one object under both names, each answering in its own group', async () => {
    const created = await ts.call({ method: 'POST', path: leases(OWN), body: lease(OWN, 'one', 'a') });
    assert.equal(created.status, 201, created.body);
    const viaAlias = await ts.call({ path: `${leases(UP)}/one` });
    assert.equal(viaAlias.status, 200, viaAlias.body);
    const a = viaAlias.json();
    assert.equal(a.apiVersion, `${UP}/v1`);
    assert.equal(a.kind, 'Lease');
    const meta = created.json().metadata as Json;
    assert.equal((a.metadata as Json).uid, meta.uid);
    assert.equal((a.metadata as Json).resourceVersion, meta.resourceVersion);

    const list = await ts.call({ path: leases(UP) });
    assert.equal(list.json().apiVersion, `${UP}/v1`);
    assert.equal(list.json().kind, 'LeaseList');
    assert.deepEqual(
      (list.json().items as Json[]).map((i) => (i.metadata as Json).name),
      ['one'],
    );
  });

  it('writes through the alias, in either apiVersion, land in the same object', async () => {
    const created = await ts.call({ method: 'POST', path: leases(UP), body: lease(UP, 'two', 'a') });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().apiVersion, `${UP}/v1`);
    const own = (await ts.call({ path: `${leases(OWN)}/two` })).json();
    assert.equal(own.apiVersion, `${OWN}/v1`);
    // An update through the alias with the profile's apiVersion, then a stale one is refused.
    const next = { ...own, spec: { holderIdentity: 'b' } };
    const updated = await ts.call({ method: 'PUT', path: `${leases(UP)}/two`, body: JSON.stringify(next) });
    assert.equal(updated.status, 200, updated.body);
    assert.equal(updated.json().apiVersion, `${UP}/v1`);
    const stale = await ts.call({ method: 'PUT', path: `${leases(UP)}/two`, body: JSON.stringify(next) });
    assert.equal(stale.status, 409, stale.body);
    const read = (await ts.call({ path: `${leases(OWN)}/two` })).json();
    assert.equal((read.spec as Json).holderIdentity, 'b');
    const wrong = await ts.call({
      method: 'POST',
      path: leases(UP),
      body: lease('example.com', 'three', 'a'),
    });
    assert.equal(wrong.status, 400, wrong.body);
  });

  it('a watch through the alias carries the alias apiVersion', async () => {
    const events = await new Promise<Json[]>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: ts.server.port,
          path: `${leases(UP)}?watch=true&fieldSelector=metadata.name%3Dwatched`,
          ca: readPem(ts, 'ca.crt'),
          cert: readPem(ts, 'admin.crt'),
          key: readPem(ts, 'admin.key'),
        },
        (res) => {
          let buf = '';
          res.on('data', (d: Buffer) => {
            buf += d.toString();
            const lines = buf.split('\n').filter((l) => l !== '');
            if (lines.length >= 1 && buf.endsWith('\n')) {
              req.destroy();
              resolve(lines.map((l) => JSON.parse(l) as Json));
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
      // The write comes once the watch is open: its response headers have arrived by then.
      req.on('response', () => {
        ts.call({ method: 'POST', path: leases(OWN), body: lease(OWN, 'watched', 'a') }).catch(reject);
      });
    });
    assert.equal(events[0].type, 'ADDED');
    assert.equal((events[0].object as Json).apiVersion, `${UP}/v1`);
  });

  it('protobuf through the alias names the alias group in its envelope', async () => {
    const r = await ts.call({
      path: `${leases(UP)}/one`,
      headers: { accept: UPSTREAM_ALIASES.protobufMediaType },
    });
    assert.equal(r.status, 200, r.body);
    const obj = decodeProtobuf(() => leaseKind(upstream).schema, r.bytes);
    assert.equal(obj.apiVersion, `${UP}/v1`);
    assert.equal((obj.spec as Json).holderIdentity, 'a');
  });

  it('aliases are advertised in discovery and OpenAPI, after the canonical group', async () => {
    const groups = (await ts.call({ path: '/apis' })).json().groups as Json[];
    const names = groups.map((g) => g.name);
    assert.ok(names.includes(OWN), names.join(' '));
    assert.ok(names.includes(UP), names.join(' '));
    // A bare resource name resolves to the first group that serves it: the canonical one.
    assert.ok(names.indexOf(OWN) < names.indexOf(UP), names.join(' '));
    assert.equal((await ts.call({ path: `/apis/${UP}` })).status, 200);
    const resources = (await ts.call({ path: `/apis/${UP}/v1` })).json().resources as Json[];
    assert.ok(resources.some((r) => r.name === 'leases' && r.kind === 'Lease'));
    const aggregated = await ts.call({
      path: '/apis',
      headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    });
    assert.ok(aggregated.body.includes(`"${UP}"`));
    assert.ok(aggregated.body.indexOf(`"${OWN}"`) < aggregated.body.indexOf(`"${UP}"`));
    const index = await ts.call({ path: '/openapi/v3' });
    assert.ok(index.body.includes(`apis/${OWN}/v1`));
    assert.ok(index.body.includes(`apis/${UP}/v1`));
    const v3 = await ts.call({ path: `/openapi/v3/apis/${UP}/v1` });
    assert.equal(v3.status, 200);
    assert.ok(v3.body.includes(`"group":"${UP}"`) || v3.body.includes(`"group": "${UP}"`));
    const v2 = await ts.call({ path: '/openapi/v2', headers: { accept: 'application/json' } });
    assert.ok(v2.body.includes(`/apis/${UP}/v1/namespaces/{namespace}/leases`));
  });

  it('authorization decides on the canonical group', async () => {
    const r = await ts.call({ path: `${leases(UP)}/one`, anonymous: true });
    assert.equal(r.status, 403, r.body);
    assert.match(String(r.json().message), new RegExp(`in API group "${OWN.replaceAll('.', '\\.')}"`));
  });

  it("a stock typed client's leader-election round trip on the upstream name", async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(ts.server.adminConfigPath);
    const api = kc.makeApiClient(CoordinationV1Api);
    // No times: client-node writes Dates with milliseconds, which MicroTime (upstream's too) refuses.
    const created = await api.createNamespacedLease({
      namespace: 'default',
      body: { metadata: { name: 'leader' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } },
    });
    assert.equal(created.apiVersion, `${UP}/v1`);
    const got = await api.readNamespacedLease({ name: 'leader', namespace: 'default' });
    assert.equal(got.spec?.holderIdentity, 'me');
    got.spec = { ...got.spec, holderIdentity: 'you', leaseTransitions: 1 };
    const renewed = await api.replaceNamespacedLease({ name: 'leader', namespace: 'default', body: got });
    assert.notEqual(renewed.metadata?.resourceVersion, got.metadata?.resourceVersion);
    const own = (await ts.call({ path: `${leases(OWN)}/leader` })).json();
    assert.equal((own.spec as Json).holderIdentity, 'you');
  });
});

describe('no aliases under the upstream profile', () => {
  let ts: TestApiServer;
  before(async () => {
    ts = await startTestApiServer({ naming: 'upstream' });
  });
  after(() => ts.stop());

  it('serves the upstream names, and nothing under the spec domain', async () => {
    const r = await ts.call({ method: 'POST', path: leases(UP), body: lease(UP, 'one', 'a') });
    assert.equal(r.status, 201, r.body);
    assert.equal((await ts.call({ path: `/apis/${UP}/v1` })).status, 200);
    assert.equal((await ts.call({ path: `${leases(OWN)}/one` })).status, 404);
  });
});

function readPem(ts: TestApiServer, name: string): Buffer {
  return readFileSync(join(ts.dir, name));
}
