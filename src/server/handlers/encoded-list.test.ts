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
      // Enough for several of the cache's blocks, so that lists take whole ones already joined.
      ...Array.from({ length: 150 }, (_, i) => ({
        metadata: { name: `n${String(i).padStart(3, '0')}` },
        data: { i: i % 10 === 0 ? `ü${i}` : String(i) },
      })),
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
    assert.equal(items.length, 153);
    assert.equal(
      (items.find((i) => i.metadata.name === 'unicode') as unknown as { data: { k: string } }).data.k,
      'grüße, 日本, 🙂, \u2028',
    );
  });

  it('writes whole blocks of the cache joined, across write pieces, as the decoded list', async () => {
    // Every namespace: the range covers the cache's blocks whole, the large item's spans pieces.
    const fast = await t.call({ path: '/api/v1/configmaps?resourceVersion=0' });
    assert.equal(fast.status, 200, fast.body);
    const slow = await t.call({ path: '/api/v1/configmaps?resourceVersion=0&pretty=true' });
    assert.equal(fast.body, `${JSON.stringify(JSON.parse(slow.body))}\n`);
    assert.equal(Number(fast.headers['content-length']), Buffer.byteLength(fast.body));
    // After a change, the block it is in is packed again.
    const patched = await t.call({
      method: 'PATCH',
      path: `${CM}/n075`,
      headers: { 'content-type': 'application/merge-patch+json' },
      body: '{"data":{"i":"changed ü"}}',
    });
    assert.equal(patched.status, 200, patched.body);
    const after = await t.call({
      path: `/api/v1/configmaps?resourceVersion=${(patched.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion}`,
    });
    const names = (after.json() as { items: { metadata: { name: string }; data: { i: string } }[] }).items;
    assert.equal(names.find((i) => i.metadata.name === 'n075')?.data.i, 'changed ü');
    const reference = await t.call({ path: '/api/v1/configmaps?resourceVersion=0&pretty=true' });
    assert.equal(after.body, `${JSON.stringify(JSON.parse(reference.body))}\n`);
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
