// GET /openapi/v2 over HTTPS as upstream's handler answers: JSON or gnostic protobuf by Accept, an
// empty 406 otherwise, one ETag for both, 304 for a matching If-None-Match or a recent enough
// If-Modified-Since, gzip for clients that ask.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { type Reply, startTestApiServer, type TestApiServer } from '../testing/index.ts';
import { OPENAPI_V2_PROTOBUF } from './v2-negotiation.ts';

const CLIENT_GO = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

describe('GET /openapi/v2', () => {
  let ts: TestApiServer;
  const get = (headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> =>
    ts.call({ path: '/openapi/v2', headers, method });
  before(async () => {
    ts = await startTestApiServer();
  });
  after(() => ts.stop());

  it('answers JSON by default and protobuf to client-go, under one ETag', async () => {
    const json = await get();
    assert.equal(json.status, 200);
    assert.equal(json.headers['content-type'], 'application/json');
    assert.equal(json.json().swagger, '2.0');
    assert.match(String(json.headers.etag), /^"[0-9A-F]{128}"$/);
    assert.ok(json.headers['last-modified']);
    assert.equal(json.headers.vary, 'Accept-Encoding, Accept');
    for (const accept of [CLIENT_GO, OPENAPI_V2_PROTOBUF]) {
      const pb = await get({ accept });
      assert.equal(pb.status, 200);
      assert.equal(pb.headers['content-type'], OPENAPI_V2_PROTOBUF);
      assert.equal(pb.headers.etag, json.headers.etag);
      assert.equal(Number(pb.headers['content-length']), pb.bytes.length);
      // Field 1 (swagger), a string: "2.0".
      assert.deepEqual([...pb.bytes.subarray(0, 5)], [0x0a, 3, 0x32, 0x2e, 0x30]);
    }
  });

  it('an Accept naming neither is an empty 406', async () => {
    const r = await get({ accept: 'application/yaml' });
    assert.equal(r.status, 406);
    assert.equal(r.body, '');
  });

  it('304 for a matching If-None-Match, and for If-Modified-Since at or after Last-Modified', async () => {
    const first = await get({ accept: CLIENT_GO });
    const etag = String(first.headers.etag);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await get({ accept: CLIENT_GO, 'if-none-match': inm });
      assert.equal(r.status, 304, inm);
      assert.equal(r.bytes.length, 0);
      assert.equal(r.headers.etag, etag);
    }
    assert.equal((await get({ accept: CLIENT_GO, 'if-none-match': '"other"' })).status, 200);
    const lastModified = String(first.headers['last-modified']);
    assert.equal((await get({ 'if-modified-since': lastModified })).status, 304);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    assert.equal((await get({ 'if-modified-since': earlier })).status, 200);
    // If-None-Match decides alone when present.
    assert.equal((await get({ 'if-none-match': '"other"', 'if-modified-since': lastModified })).status, 200);
  });

  it('gzips for clients that accept it; HEAD has the headers alone', async () => {
    const plain = await get({ accept: CLIENT_GO });
    const zipped = await get({ accept: CLIENT_GO, 'accept-encoding': 'gzip' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(zipped.bytes), plain.bytes);
    const head = await get({ accept: CLIENT_GO }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.bytes.length, 0);
    assert.equal(head.headers['content-length'], String(plain.bytes.length));
  });
});
