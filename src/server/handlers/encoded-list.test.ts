// Lists written from the watch cache's text are byte for byte what encoding the decoded list gives:
// non-ASCII items, an item larger than a write piece, empty lists, and gzip.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { startTestApiServer, type TestApiServer } from '../testing/index.ts';

const NS = '/api/v1/namespaces/spliced';
const CM = `${NS}/configmaps`;

describe('lists written from cached text', () => {
  let t: TestApiServer;

  before(async () => {
    t = await startTestApiServer();
    await t.call({ method: 'POST', path: '/api/v1/namespaces', body: '{"metadata":{"name":"spliced"}}' });
    const bodies = [
      { metadata: { name: 'ascii' }, data: { k: 'plain' } },
      { metadata: { name: 'unicode', labels: { app: 'x' } }, data: { k: 'grüße, 日本, 🙂, \u2028' } },
      // Larger than one write piece once its neighbours are counted.
      { metadata: { name: 'large' }, data: { k: 'y'.repeat(1000 * 1024) } },
      ...Array.from({ length: 50 }, (_, i) => ({ metadata: { name: `n${i}` }, data: { i: String(i) } })),
    ];
    for (const body of bodies) {
      const r = await t.call({ method: 'POST', path: CM, body: JSON.stringify(body) });
      assert.equal(r.status, 201, r.body);
    }
  });
  after(() => t.stop());

  it('gives the bytes JSON.stringify gives for the same list, with its length', async () => {
    const fast = await t.call({ path: `${CM}?resourceVersion=0` });
    assert.equal(fast.status, 200, fast.body);
    // pretty=true takes the decoding path; compacted, it is the reference.
    const slow = await t.call({ path: `${CM}?resourceVersion=0&pretty=true` });
    assert.equal(fast.body, `${JSON.stringify(JSON.parse(slow.body))}\n`);
    assert.equal(Number(fast.headers['content-length']), Buffer.byteLength(fast.body));
    const items = (fast.json() as { items: { metadata: { name: string } }[] }).items;
    assert.equal(items.length, 53);
    assert.equal(
      (items.find((i) => i.metadata.name === 'unicode') as unknown as { data: { k: string } }).data.k,
      'grüße, 日本, 🙂, \u2028',
    );
  });

  it('other encodings of a cache-served list show only the list', async () => {
    const r = await t.call({ path: `${CM}?resourceVersion=0`, headers: { accept: 'application/yaml' } });
    assert.equal(r.status, 200);
    assert.match(r.body, /^apiVersion: v1\nitems:\n/);
    assert.doesNotMatch(r.body, /encoded|typeMeta/);
  });

  it('writes an empty list as upstream does', async () => {
    const r = await t.call({ path: `${CM}?resourceVersion=0&labelSelector=app%3Dnone` });
    assert.equal(r.status, 200);
    assert.match(r.body, /"items":\[\]\}\n$/);
  });

  it('filters by labels without losing bytes', async () => {
    const r = await t.call({ path: `${CM}?resourceVersion=0&labelSelector=app%3Dx` });
    assert.deepEqual(
      (r.json() as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name),
      ['unicode'],
    );
  });

  it('gzips a large list for a client that accepts it', async () => {
    const plain = await t.call({ path: `${CM}?resourceVersion=0` });
    const zipped = await t.call({
      path: `${CM}?resourceVersion=0`,
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(zipped.bytes).toString('utf8'), plain.body);
  });
});
