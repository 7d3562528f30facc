// APIResponseCompression: large object responses are gzipped for clients that accept it.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';

const CM = '/api/v1/namespaces/default/configmaps';

async function fill(t: TestApiServer): Promise<void> {
  const value = 'x'.repeat(2048);
  for (let i = 0; i < 80; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        t.call({
          method: 'POST',
          path: CM,
          body: JSON.stringify({ metadata: { name: `cm-${i + j}` }, data: { value } }),
        }),
      ),
    );
  }
}

describe('response compression', () => {
  let on: TestApiServer;
  let off: TestApiServer;
  before(async () => {
    on = await startTestApiServer();
    off = await startTestApiServer({ featureGates: { APIResponseCompression: false } });
    await Promise.all([fill(on), fill(off)]);
  });
  after(async () => {
    await on.stop();
    await off.stop();
  });

  it('a large list is gzipped when the client accepts gzip', async () => {
    const r = await on.call({ path: CM, headers: { 'accept-encoding': 'gzip, deflate' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'gzip');
    const list = JSON.parse(gunzipSync(r.bytes).toString('utf8')) as { items: unknown[] };
    assert.equal(list.items.length, 80);
  });

  it('not without Accept-Encoding, not for small bodies, not with the gate off', async () => {
    assert.equal((await on.call({ path: CM })).headers['content-encoding'], undefined);
    const small = await on.call({ path: `${CM}/cm-1`, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(small.status, 200);
    const gated = await off.call({ path: CM, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gated.headers['content-encoding'], undefined);
    assert.equal((gated.json() as { items: unknown[] }).items.length, 80);
  });

  it('gzip;q=0 is a refusal', async () => {
    const r = await on.call({ path: CM, headers: { 'accept-encoding': 'gzip;q=0' } });
    assert.equal(r.headers['content-encoding'], undefined);
  });
});
