// Watch streams in protobuf (length-prefixed WatchEvent frames, `<type>;stream=watch`) and CBOR
// (application/cbor-seq), read with the codecs' own stream readers, beside a JSON watcher of the
// same events.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { builtinKinds } from '../apis/index.ts';
import { CborSequenceReader, decodeCbor } from '../codec/cbor/index.ts';
import { decodeProtobuf, decodeWatchEvent, FrameReader } from '../codec/protobuf/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import { namingProfile } from '../naming/profile.ts';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';

const PROFILE = namingProfile('spec');
const KINDS = builtinKinds(PROFILE);
const lookup = (_apiVersion: string, kind: string) => KINDS.find((k) => k.resource.kind === kind)?.schema;
const PATH = '/api/v1/namespaces/default/configmaps';

type Event = { type: string; object: ApiObject };

/** Opens a watch and collects its events, decoded by `split` from the raw stream. */
function openWatch(
  t: TestApiServer,
  accept: string,
  split: (chunk: Buffer) => Event[],
): Promise<{ contentType: string; events: Event[]; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: t.server.port,
        path: `${PATH}?watch=true&timeoutSeconds=20`,
        ca: readFileSync(join(t.dir, 'ca.crt')),
        cert: readFileSync(join(t.dir, 'admin.crt')),
        key: readFileSync(join(t.dir, 'admin.key')),
        headers: { accept },
      },
      (res) => {
        const events: Event[] = [];
        res.on('data', (d: Buffer) => events.push(...split(d)));
        resolve({ contentType: String(res.headers['content-type']), events, close: () => req.destroy() });
      },
    );
    req.on('error', (err) => {
      if ((err as { code?: string }).code !== 'ECONNRESET') reject(err);
    });
    req.end();
  });
}

async function until(f: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(f(), 'timed out');
}

describe('binary watch streams', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer({ featureGates: { CBORServingAndStorage: true } });
  });
  after(() => t.stop());

  it('protobuf frames and CBOR sequence items carry the events a JSON watcher sees', async () => {
    const frames = new FrameReader();
    const pb = await openWatch(t, `${PROFILE.protobufMediaType}, application/json`, (d) =>
      frames.push(d).map((f) => {
        const ev = decodeWatchEvent(f);
        return { type: ev.type, object: decodeProtobuf(lookup, ev.object) };
      }),
    );
    const items = new CborSequenceReader();
    const cbor = await openWatch(t, 'application/cbor', (d) =>
      items.push(d).map((i) => decodeCbor(i).value as Event),
    );
    let text = '';
    const json = await openWatch(t, 'application/json', (d) => {
      text += d.toString();
      const lines = text.split('\n');
      text = lines.pop() ?? '';
      return lines.map((l) => JSON.parse(l) as Event);
    });
    assert.equal(pb.contentType, `${PROFILE.protobufMediaType};stream=watch`);
    assert.equal(cbor.contentType, 'application/cbor-seq');
    assert.equal(json.contentType, 'application/json');

    const create = await t.call({
      method: 'POST',
      path: PATH,
      body: JSON.stringify({ metadata: { name: 'watched' }, data: { a: '1' } }),
    });
    assert.equal(create.status, 201, create.body);
    const del = await t.call({ method: 'DELETE', path: `${PATH}/watched` });
    assert.equal(del.status, 200, del.body);
    for (const w of [pb, cbor, json]) await until(() => w.events.length >= 2);
    for (const w of [pb, cbor, json]) w.close();

    const summary = (evs: Event[]) =>
      evs.map((e) => [e.type, e.object.kind, e.object.metadata?.name, e.object.metadata?.resourceVersion]);
    assert.deepEqual(summary(json.events).slice(0, 1), [
      ['ADDED', 'ConfigMap', 'watched', (create.json() as ApiObject).metadata?.resourceVersion],
    ]);
    assert.deepEqual(
      json.events.map((e) => e.type),
      ['ADDED', 'DELETED'],
    );
    assert.deepEqual(summary(pb.events), summary(json.events));
    assert.deepEqual(cbor.events, json.events);
    assert.deepEqual((pb.events[0].object as { data: unknown }).data, { a: '1' });
  });

  it('a YAML watch is refused with the stream media types', async () => {
    const r = await t.call({ path: `${PATH}?watch=true`, headers: { accept: 'application/yaml' } });
    assert.equal(r.status, 406);
  });
});
