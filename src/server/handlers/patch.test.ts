// PATCH over HTTP: each patch type, preconditions, field validation of patches, and stored data
// left alone by every refused patch.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer, warningsOf } from '../testing/index.ts';

const CM = '/api/v1/namespaces/default/configmaps';

describe('PATCH over HTTP', () => {
  let t: TestApiServer;
  const patch = (name: string, type: string, body: string, query = '') =>
    t.call({
      method: 'PATCH',
      path: `${CM}/${name}${query}`,
      body,
      headers: { 'content-type': `application/${type}` },
    });
  const stored = async (name: string) => (await t.call({ path: `${CM}/${name}` })).body;

  before(async () => {
    t = await startTestApiServer();
    await t.call({
      method: 'POST',
      path: CM,
      body: '{"metadata":{"name":"p","labels":{"a":"1"}},"data":{"k":"v"}}',
    });
  });
  after(() => t.stop());

  it('each patch type changes the object', async () => {
    assert.equal((await patch('p', 'merge-patch+json', '{"data":{"m":"1"}}')).status, 200);
    assert.equal(
      (await patch('p', 'strategic-merge-patch+json', '{"metadata":{"labels":{"b":"2"}}}')).status,
      200,
    );
    const r = await patch('p', 'json-patch+json', '[{"op":"add","path":"/data/j","value":"2"}]');
    assert.equal(r.status, 200);
    const obj = r.json() as { data: Record<string, string>; metadata: { labels: Record<string, string> } };
    assert.deepEqual(obj.data, { k: 'v', m: '1', j: '2' });
    assert.deepEqual(obj.metadata.labels, { a: '1', b: '2' });
  });

  it('refusals leave the stored object as it was', async () => {
    const before = await stored('p');
    const cases: [string, string, string, number, RegExp][] = [
      [
        'merge-patch+json',
        '{"metadata":{"resourceVersion":"1"},"data":{"x":"1"}}',
        '',
        409,
        /the object has been modified/,
      ],
      [
        'json-patch+json',
        '[{"op":"test","path":"/data/k","value":"other"}]',
        '',
        422,
        /the server rejected our request/,
      ],
      [
        'json-patch+json',
        '{"op":"add"}',
        '',
        400,
        /cannot unmarshal object into Go value of type jsonpatch.Patch/,
      ],
      ['merge-patch+json', '{not json', '', 400, /^error decoding patch: /],
      [
        'merge-patch+json',
        '{"data":{"k":1}}',
        '',
        422,
        /^ "" is invalid: patch: Invalid value: .*cannot unmarshal number/,
      ],
      [
        'apply-patch+yaml',
        'data: {}',
        '',
        422,
        /^PatchOptions\.meta\.[a-z.]+ "" is invalid: fieldManager: Required value: is required for apply patch$/,
      ],
      ['apply-patch+yaml', '- a', '?fieldManager=m', 400, /^error decoding YAML: .*cannot unmarshal array/],
      [
        'apply-patch+yaml',
        'apiVersion: v1\nkind: Secret\nmetadata: {name: p}',
        '?fieldManager=m',
        400,
        /^invalid object type: \/v1, Kind=Secret$/,
      ],
      [
        'apply-patch+yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p}\nbogus: 1',
        '?fieldManager=m',
        500,
        /^failed to create typed patch object \(\/p; \/v1, Kind=ConfigMap\): \.bogus: field not declared in schema$/,
      ],
      [
        'merge-patch+json',
        '{}',
        '?force=true',
        422,
        /force: Forbidden: may not be specified for non-apply patch/,
      ],
      [
        'merge-patch+json',
        '{"data":{"a":"1","a":"2"},"bogus":1}',
        '?fieldValidation=Strict',
        422,
        /strict decoding error: duplicate field "data.a", unknown field "bogus"/,
      ],
    ];
    for (const [type, body, query, code, message] of cases) {
      const r = await patch('p', type, body, query);
      assert.equal(r.status, code, `${type} ${body}: ${r.body}`);
      assert.match(String(r.json().message), message);
    }
    assert.equal(await stored('p'), before);
  });

  it('patches racing on one object all succeed: a lost race is re-applied, not a 409', async () => {
    await t.call({ method: 'POST', path: CM, body: '{"metadata":{"name":"race"}}' });
    const writers = 40;
    const replies = await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        patch(
          'race',
          i % 2 === 0 ? 'merge-patch+json' : 'strategic-merge-patch+json',
          `{"data":{"w${i}":"${i}"}}`,
        ),
      ),
    );
    const failed = replies.filter((r) => r.status !== 200);
    assert.deepEqual(
      failed.map((r) => `${r.status} ${r.body}`),
      [],
    );
    const obj = JSON.parse(await stored('race')) as { data: Record<string, string> };
    assert.deepEqual(Object.keys(obj.data).sort(), Array.from({ length: writers }, (_, i) => `w${i}`).sort());
  });

  it('a patch of a missing object is 404', async () => {
    const r = await patch('missing', 'merge-patch+json', '{}');
    assert.equal(r.status, 404);
    assert.equal(r.json().message, 'configmaps "missing" not found');
  });

  it("Warn reports the patch document's repeats first, then the result's unknown fields in key order", async () => {
    const r = await patch('p', 'merge-patch+json', '{"zz":1,"data":{"q":"1","q":"2"},"aa":2}');
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(warningsOf(r), ['duplicate field "data.q"', 'unknown field "aa"', 'unknown field "zz"']);
    const j = await patch('p', 'json-patch+json', '[{"op":"add","path":"/data/w","value":"1","foo":"bar"}]');
    assert.deepEqual(warningsOf(j), ['json patch unknown field "[0].foo"']);
  });
});
