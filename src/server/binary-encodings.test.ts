// Every served kind through create, get, list, update, patch and delete in JSON, YAML, protobuf and
// CBOR (gate on): the stored objects are the same whatever the request's encoding, and each answer
// is exactly the encoding of the object a JSON read returns. Also: binary bodies answered in JSON,
// malformed binary bodies refused with nothing stored, CBOR repeated keys per fieldValidation.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml, parse as yamlParse } from 'yaml';
import { builtinKinds } from '../apis/index.ts';
import { decodeCbor, encodeCbor } from '../codec/cbor/index.ts';
import { decodeProtobuf, encodeMetaProtobuf, encodeProtobuf } from '../codec/protobuf/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import { namingProfile, UPSTREAM_ALIASES } from '../naming/profile.ts';
import type { KindDefinition } from '../registry/kind.ts';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';

const PROFILE = namingProfile('spec');
const KINDS = builtinKinds(PROFILE);
const lookup = (apiVersion: string, kind: string) =>
  KINDS.find((k) => k.resource.kind === kind && gv(k) === apiVersion)?.schema;
const gv = (k: KindDefinition) =>
  k.resource.group === '' ? k.resource.version : `${k.resource.group}/${k.resource.version}`;
const kindOf = (name: string) => {
  const k = KINDS.find((x) => x.resource.kind === name);
  if (k === undefined) throw new Error(name);
  return k;
};

const PB = PROFILE.protobufMediaType;
const CBOR = 'application/cbor';

interface Encoding {
  name: string;
  type: string;
  encode(obj: ApiObject, k: KindDefinition): string | Buffer;
  decode(bytes: Buffer): ApiObject;
}
const ENCODINGS: Encoding[] = [
  {
    name: 'json',
    type: 'application/json',
    encode: (o) => JSON.stringify(o),
    decode: (b) => JSON.parse(b.toString('utf8')),
  },
  {
    name: 'yaml',
    type: 'application/yaml',
    encode: (o) => toYaml(o),
    decode: (b) => yamlParse(b.toString()),
  },
  {
    name: 'protobuf',
    type: PB,
    encode: (o, k) => encodeProtobuf(k.schema, o),
    decode: (b) => decodeProtobuf(lookup, b),
  },
  {
    name: 'cbor',
    type: CBOR,
    encode: (o) => encodeCbor(o),
    decode: (b) => decodeCbor(b).value as ApiObject,
  },
];

const podTemplate = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
});

/** A minimal valid object of each served kind. */
const SAMPLES: Record<string, (name: string) => Record<string, unknown>> = {
  ConfigMap: () => ({ data: { a: '1', 'b.txt': 'two\n' } }),
  Secret: () => ({ type: 'Opaque', data: { token: Buffer.from('s3cret').toString('base64') } }),
  Namespace: () => ({}),
  ServiceAccount: () => ({ automountServiceAccountToken: false }),
  Lease: () => ({ spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } }),
  Deployment: (name) => ({
    spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: podTemplate(name) },
  }),
  ReplicaSet: (name) => ({
    spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: podTemplate(name) },
  }),
};

function collection(k: KindDefinition): string {
  const r = k.resource;
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return r.namespaced ? `${base}/namespaces/default/${r.resource}` : `${base}/${r.resource}`;
}

/** The object with what differs between two objects made the same way (names, times, ids) masked. */
function comparable(obj: ApiObject, name: string): unknown {
  const text = JSON.stringify(obj).replaceAll(name, 'NAME');
  const o = JSON.parse(text) as { metadata: Record<string, unknown> };
  for (const f of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp']) delete o.metadata[f];
  for (const m of (o.metadata.managedFields ?? []) as Record<string, unknown>[]) delete m.time;
  return o;
}

describe('binary encodings over HTTP', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer({ featureGates: { CBORServingAndStorage: true } });
  });
  after(() => t.stop());

  /** The object as a JSON read returns it. */
  const jsonGet = async (path: string) => {
    const r = await t.call({ path });
    assert.equal(r.status, 200, r.body);
    return r.json() as ApiObject;
  };

  for (const kindName of Object.keys(SAMPLES)) {
    it(`${kindName}: every verb in every encoding, with the same results`, async () => {
      const k = kindOf(kindName);
      const path = collection(k);
      const results = new Map<string, unknown[]>();
      for (const enc of ENCODINGS) {
        const name = `rt-${kindName.toLowerCase()}-${enc.name}`;
        const headers = { 'content-type': enc.type, accept: enc.type };
        const steps: unknown[] = [];
        /** Checks an answer is `enc`'s encoding of the object a JSON read gives at that moment. */
        const check = async (bytes: Buffer, contentType: unknown, status: number, want: number) => {
          assert.equal(status, want, bytes.toString());
          assert.equal(String(contentType), enc.type);
          const got = enc.decode(bytes);
          const stored = await jsonGet(`${path}/${name}`);
          if (enc.name === 'protobuf')
            assert.equal(bytes.toString('hex'), encodeProtobuf(k.schema, stored).toString('hex'));
          else if (enc.name === 'cbor')
            assert.equal(bytes.toString('hex'), encodeCbor(stored).toString('hex'));
          else assert.deepEqual(got, stored);
          steps.push(comparable(stored, name));
          return got;
        };
        const obj = { apiVersion: gv(k), kind: kindName, metadata: { name }, ...SAMPLES[kindName](name) };
        const created = await t.call({
          method: 'POST',
          path,
          body: enc.encode(obj as ApiObject, k),
          headers,
        });
        const c = await check(created.bytes, created.headers['content-type'], created.status, 201);

        const got = await t.call({ path: `${path}/${name}`, headers: { accept: enc.type } });
        await check(got.bytes, got.headers['content-type'], got.status, 200);

        const listed = await t.call({ path, headers: { accept: enc.type } });
        assert.equal(listed.status, 200, listed.body);
        const list = enc.decode(listed.bytes) as unknown as { kind: string; items: ApiObject[] };
        assert.equal(list.kind, `${kindName}List`);
        assert.ok(list.items.some((i) => i.metadata?.name === name));

        const next = {
          ...c,
          metadata: { ...c.metadata, labels: { ...(c.metadata?.labels ?? {}), updated: 'yes' } },
        };
        const updated = await t.call({
          method: 'PUT',
          path: `${path}/${name}`,
          body: enc.encode(next, k),
          headers,
        });
        await check(updated.bytes, updated.headers['content-type'], updated.status, 200);

        const patched = await t.call({
          method: 'PATCH',
          path: `${path}/${name}`,
          body: JSON.stringify({ metadata: { annotations: { patched: 'yes' } } }),
          headers: { 'content-type': 'application/merge-patch+json', accept: enc.type },
        });
        await check(patched.bytes, patched.headers['content-type'], patched.status, 200);

        const deleted = await t.call({
          method: 'DELETE',
          path: `${path}/${name}`,
          headers: { accept: enc.type },
        });
        assert.equal(deleted.status, 200, deleted.body);
        assert.equal(String(deleted.headers['content-type']), enc.type);
        const gone = enc.decode(deleted.bytes);
        assert.ok(gone.kind === kindName || gone.kind === 'Status', String(gone.kind));
        results.set(enc.name, steps);
      }
      const json = results.get('json');
      for (const [name, steps] of results) assert.deepEqual(steps, json, `${name} differs from json`);
    });
  }

  it('a protobuf or CBOR body is answered in JSON when JSON is asked for', async () => {
    const k = kindOf('ConfigMap');
    for (const [type, body] of [
      [
        PB,
        encodeProtobuf(k.schema, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'as-json-pb' } }),
      ],
      [CBOR, encodeCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'as-json-cbor' } })],
    ] as const) {
      const r = await t.call({
        method: 'POST',
        path: collection(k),
        body,
        headers: { 'content-type': type, accept: 'application/json' },
      });
      assert.equal(r.status, 201, r.body);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal((r.json() as ApiObject).kind, 'ConfigMap');
    }
  });

  it('malformed protobuf and CBOR bodies answer 400 and store nothing', async () => {
    const path = collection(kindOf('ConfigMap'));
    const before = (await jsonGet(path)) as unknown as { items: unknown[] };
    for (const [type, body] of [
      [PB, Buffer.from('not protobuf at all')],
      [PB, Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0xff])],
      [CBOR, Buffer.from([0xd9, 0xd9, 0xf7, 0xa1, 0x61])],
      [CBOR, Buffer.from('{"json":"is not cbor"}')],
    ] as const) {
      const r = await t.call({ method: 'POST', path, body, headers: { 'content-type': type } });
      assert.equal(r.status, 400, `${type} ${r.body}`);
      assert.equal((r.json() as { reason: string }).reason, 'BadRequest');
    }
    const after = (await jsonGet(path)) as unknown as { items: unknown[] };
    assert.equal(after.items.length, before.items.length);
  });

  it('errors go out in protobuf to a protobuf client', async () => {
    const r = await t.call({
      path: `${collection(kindOf('ConfigMap'))}/missing`,
      headers: { accept: `${PB}, application/json` },
    });
    assert.equal(r.status, 404);
    assert.equal(r.headers['content-type'], PB);
    const status = decodeProtobuf(lookup, r.bytes) as unknown as {
      kind: string;
      reason: string;
      message: string;
    };
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'NotFound');
    assert.equal(status.message, 'configmaps "missing" not found');
  });

  it('the upstream protobuf media type is accepted and answered in', async () => {
    const upstream = UPSTREAM_ALIASES.protobufMediaType;
    const k = kindOf('ConfigMap');
    const r = await t.call({
      method: 'POST',
      path: collection(k),
      body: encodeProtobuf(k.schema, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'upstream-pb' },
      }),
      headers: { 'content-type': upstream, accept: `${upstream},application/json` },
    });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.headers['content-type'], upstream);
    assert.equal(decodeProtobuf(lookup, r.bytes).metadata?.name, 'upstream-pb');
  });

  it('415 and 406 name what is served', async () => {
    const path = collection(kindOf('ConfigMap'));
    const served = `application/json, application/yaml, ${PB}, application/cbor`;
    const r415 = await t.call({ method: 'POST', path, body: 'x', headers: { 'content-type': 'text/plain' } });
    assert.equal(r415.status, 415);
    assert.equal(
      (r415.json() as { message: string }).message,
      `the body of the request was in an unknown format - accepted media types include: ${served}`,
    );
    const r406 = await t.call({ path, headers: { accept: 'text/html' } });
    assert.equal(r406.status, 406);
    assert.equal(r406.headers['content-type'], 'application/json');
    assert.equal(
      (r406.json() as { message: string }).message,
      `only the following media types are accepted: ${served}`,
    );
    const yamlWatch = await t.call({ path: `${path}?watch=true`, headers: { accept: 'application/yaml' } });
    assert.equal(yamlWatch.status, 406);
    assert.equal(
      (yamlWatch.json() as { message: string }).message,
      `only the following media types are accepted: application/json;stream=watch, ${PB};stream=watch, application/cbor-seq`,
    );
  });

  it('server-side apply with a CBOR configuration creates, then updates', async () => {
    const path = `${collection(kindOf('ConfigMap'))}/applied-cbor?fieldManager=me`;
    const config = (v: string) =>
      encodeCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied-cbor' }, data: { k: v } });
    const headers = { 'content-type': 'application/apply-patch+cbor', accept: CBOR };
    const first = await t.call({ method: 'PATCH', path, body: config('1'), headers });
    assert.equal(first.status, 201, first.body);
    assert.equal(first.headers['content-type'], CBOR);
    const second = await t.call({ method: 'PATCH', path, body: config('2'), headers });
    assert.equal(second.status, 200, second.body);
    const obj = decodeCbor(second.bytes).value as {
      data: unknown;
      metadata: { managedFields: { manager: string }[] };
    };
    assert.deepEqual(obj.data, { k: '2' });
    assert.equal(obj.metadata.managedFields[0].manager, 'me');
    const bad = await t.call({ method: 'PATCH', path, body: Buffer.from([0xd9, 0xd9, 0xf7, 0x81]), headers });
    assert.equal(bad.status, 400, bad.body);
  });

  it('a protobuf DeleteOptions body is read', async () => {
    const k = kindOf('ConfigMap');
    const made = await t.call({
      method: 'POST',
      path: collection(k),
      body: JSON.stringify({ metadata: { name: 'del-pb' } }),
    });
    assert.equal(made.status, 201);
    const options = encodeMetaProtobuf('DeleteOptions', {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: { uid: 'not-the-uid' },
    });
    const r = await t.call({
      method: 'DELETE',
      path: `${collection(k)}/del-pb`,
      body: options,
      headers: { 'content-type': PB },
    });
    assert.equal(r.status, 409, r.body);
  });

  it('CBOR repeated keys follow fieldValidation, worded as for JSON', async () => {
    const path = collection(kindOf('ConfigMap'));
    // {"metadata":{"name":"dup-<level>"},"data":{"a":"1","a":"2"}} by hand: an encoder never repeats.
    const text = (s: string) => Buffer.concat([Buffer.of(0x60 + s.length), Buffer.from(s)]);
    const body = (name: string) =>
      Buffer.concat([
        Buffer.of(0xd9, 0xd9, 0xf7, 0xa2),
        text('metadata'),
        Buffer.of(0xa1),
        text('name'),
        text(name),
        text('data'),
        Buffer.of(0xa2),
        text('a'),
        text('1'),
        text('a'),
        text('2'),
      ]);
    const json = (name: string) => `{"metadata":{"name":"${name}"},"data":{"a":"1","a":"2"}}`;
    for (const level of ['Strict', 'Warn', 'Ignore']) {
      const viaCbor = await t.call({
        method: 'POST',
        path: `${path}?fieldValidation=${level}`,
        body: body(`dup-c-${level.toLowerCase()}`),
        headers: { 'content-type': CBOR, accept: 'application/json' },
      });
      const viaJson = await t.call({
        method: 'POST',
        path: `${path}?fieldValidation=${level}`,
        body: json(`dup-j-${level.toLowerCase()}`),
      });
      assert.equal(viaCbor.status, viaJson.status, viaCbor.body);
      assert.equal(viaCbor.headers.warning, viaJson.headers.warning);
      if (level === 'Strict') {
        assert.equal(viaCbor.status, 400);
        assert.equal(
          (viaCbor.json() as { message: string }).message,
          (viaJson.json() as { message: string }).message.replace('dup-j-', 'dup-c-'),
        );
        assert.match((viaCbor.json() as { message: string }).message, /duplicate field "data.a"/);
      } else {
        assert.equal(viaCbor.status, 201);
        assert.deepEqual((viaCbor.json() as { data: unknown }).data, { a: '2' });
      }
    }
  });
});

describe('binary encodings with CBOR off (the default)', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t.stop());

  it('CBOR bodies answer 415 and Accept: application/cbor answers 406, listing what is served', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const served = `application/json, application/yaml, ${PB}`;
    const r415 = await t.call({
      method: 'POST',
      path,
      body: encodeCbor({ metadata: { name: 'x' } }),
      headers: { 'content-type': CBOR },
    });
    assert.equal(r415.status, 415);
    assert.equal(
      (r415.json() as { message: string }).message,
      `the body of the request was in an unknown format - accepted media types include: ${served}`,
    );
    const r406 = await t.call({ path, headers: { accept: CBOR } });
    assert.equal(r406.status, 406);
    assert.equal(
      (r406.json() as { message: string }).message,
      `only the following media types are accepted: ${served}`,
    );
    const fallback = await t.call({ path, headers: { accept: `${CBOR}, application/json;q=0.5` } });
    assert.equal(fallback.status, 200);
    assert.equal(fallback.headers['content-type'], 'application/json');
  });
});
