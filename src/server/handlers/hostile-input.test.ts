// Hostile requests answered exactly as upstream answers them (or as the spec says where it
// differs), with the stored object and its revision left as they were.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_NESTING_DEPTH } from '../../codec/depth.ts';
import { type Reply, startTestApiServer, type TestApiServer, warningsOf } from '../testing/index.ts';

const CM = '/api/v1/namespaces/default/configmaps';

describe('hostile input', () => {
  let t: TestApiServer;
  const patch = (type: string, body: string, query = '') =>
    t.call({
      method: 'PATCH',
      path: `${CM}/p${query}`,
      body,
      headers: { 'content-type': `application/${type}` },
    });
  const stored = async () => (await t.call({ path: `${CM}/p` })).body;
  const refused = (r: Reply, code: number, reason: string | undefined, message: string) => {
    assert.equal(r.status, code, r.body);
    const s = r.json();
    assert.equal(s.kind, 'Status');
    assert.equal(s.reason, reason);
    assert.equal(s.message, message);
  };
  /** Runs a refusal and checks the stored object (and so its resourceVersion) did not move. */
  const leavesStoreAlone = async (f: () => Promise<void>) => {
    const before = await stored();
    await f();
    assert.equal(await stored(), before);
  };
  const deepArrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const deepMaps = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

  before(async () => {
    t = await startTestApiServer();
    const r = await t.call({ method: 'POST', path: CM, body: '{"metadata":{"name":"p"},"data":{"k":"v"}}' });
    assert.equal(r.status, 201, r.body);
  });
  after(() => t.stop());

  it('a create nesting a million levels deep is 400, in the JSON decoder words', async () => {
    await leavesStoreAlone(async () => {
      const r = await t.call({
        method: 'POST',
        path: CM,
        body: `{"metadata":{"name":"deep"},"bogus":${deepArrays(1_000_000)}}`,
      });
      refused(
        r,
        400,
        'BadRequest',
        `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth ({"metadata":{"name":"deep"},"b ...)`,
      );
    });
    assert.equal((await t.call({ path: `${CM}/deep` })).status, 404);
  });

  it('a create with 50,000 unknown fields answers 201 with warnings bounded as upstream bounds them', async () => {
    const unknown = Array.from({ length: 50_000 }, (_, i) => `"u${i}":1`).join(',');
    const r = await t.call({ method: 'POST', path: CM, body: `{"metadata":{"name":"flood"},${unknown}}` });
    assert.equal(r.status, 201, r.body);
    const warnings = warningsOf(r);
    assert.equal(warnings[0], 'unknown field "u0"');
    assert.ok(warnings.length > 100 && warnings.length < 400, String(warnings.length));
  });

  it('a body summary in hex when the body does not open a JSON object', async () => {
    const r = await t.call({ method: 'POST', path: CM, body: '[1]' });
    refused(
      r,
      400,
      'BadRequest',
      `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: expected an object (5b315d)`,
    );
  });

  it('a YAML create nesting too deeply is 400 naming the limit', async () => {
    const r = await t.call({
      method: 'POST',
      path: CM,
      body: `metadata: {name: deep}\nbogus: ${deepArrays(20_000)}\n`,
      headers: { 'content-type': 'application/yaml' },
    });
    assert.equal(r.status, 400, r.body);
    assert.match(
      String(r.json().message),
      new RegExp(`error converting YAML to JSON: yaml: line 2: exceeded max depth of ${MAX_NESTING_DEPTH}`),
    );
  });

  for (const [type, message] of [
    ['merge-patch+json', `error decoding patch: invalid character '{' exceeded max depth`],
    ['strategic-merge-patch+json', `invalid character '{' exceeded max depth`],
  ] as const) {
    it(`a ${type} nested thousands of levels deep is 400, never a stack overflow`, async () => {
      await leavesStoreAlone(async () => {
        refused(
          await patch(type, `{"data":{"x":"1"},"bogus":${deepMaps(5000)}}`),
          400,
          'BadRequest',
          message,
        );
      });
    });
  }

  it('a JSON patch nested thousands of levels deep is 400', async () => {
    await leavesStoreAlone(async () => {
      const r = await patch('json-patch+json', `[{"op":"add","path":"/bogus","value":${deepMaps(5000)}}]`);
      refused(r, 400, 'BadRequest', `error decoding patch: invalid character '{' exceeded max depth`);
    });
  });

  it('JSON patch copies that nest the object too deeply are 422 against the result', async () => {
    const half = MAX_NESTING_DEPTH - 10;
    const value = deepMaps(half);
    await leavesStoreAlone(async () => {
      const r = await patch(
        'json-patch+json',
        JSON.stringify([
          { op: 'add', path: '/deep', value: JSON.parse(value) },
          { op: 'copy', from: '/deep', path: `/deep${'/a'.repeat(half - 1)}` },
        ]),
      );
      assert.equal(r.status, 422, r.body);
      assert.equal(r.json().reason, 'Invalid');
      assert.match(
        String(r.json().message),
        /^ "" is invalid: patch: Invalid value: ".*": couldn't get version\/kind; json parse error: invalid character '\{' exceeded max depth$/s,
      );
    });
  });

  it('a JSON patch that replaces the root with another kind is 422', async () => {
    await leavesStoreAlone(async () => {
      const r = await patch(
        'json-patch+json',
        '[{"op":"replace","path":"","value":{"apiVersion":"v1","kind":"Secret","metadata":{"name":"p"}}}]',
      );
      refused(
        r,
        422,
        'Invalid',
        ` "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Secret\\",\\"metadata\\":{\\"name\\":\\"p\\"}}": converting (k8s.io/api/core/v1) Secret to (k8s.io/kubernetes/pkg/apis/core) ConfigMap: unknown conversion`,
      );
      const unknown = await patch('merge-patch+json', '{"kind":"Gadget"}');
      assert.equal(unknown.status, 422, unknown.body);
      assert.match(
        String(unknown.json().message),
        /: no kind "Gadget" is registered for version "v1" in scheme "pkg\/api\/legacyscheme\/scheme.go:30"$/,
      );
    });
  });

  it('a merge patch {"metadata":null} is 400: the result names no object', async () => {
    await leavesStoreAlone(async () => {
      refused(
        await patch('merge-patch+json', '{"metadata":null}'),
        400,
        'BadRequest',
        'the name of the object () does not match the name on the URL (p)',
      );
    });
  });

  it('a strategic merge patch {"$patch":"delete"} at the root is 400', async () => {
    await leavesStoreAlone(async () => {
      refused(
        await patch('strategic-merge-patch+json', '{"$patch":"delete"}'),
        400,
        'BadRequest',
        'the name of the object () does not match the name on the URL (p)',
      );
    });
  });

  it('POST /api/v1/namespaces/x/namespaces is 404', async () => {
    const r = await t.call({
      method: 'POST',
      path: '/api/v1/namespaces/x/namespaces',
      body: '{"metadata":{"name":"nested"}}',
    });
    refused(r, 404, 'NotFound', 'the server could not find the requested resource');
    assert.deepEqual(r.json().details, {});
    assert.equal((await t.call({ path: '/api/v1/namespaces/nested' })).status, 404);
  });

  it('server-side apply with an unknown field is 500 as upstream 1.35 answers it', async () => {
    await leavesStoreAlone(async () => {
      const r = await patch(
        'apply-patch+yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p, namespace: default}\nbogus: 1',
        '?fieldManager=m',
      );
      refused(
        r,
        500,
        undefined,
        'failed to create typed patch object (default/p; /v1, Kind=ConfigMap): .bogus: field not declared in schema',
      );
    });
  });

  it('a watch with timeoutSeconds=-1 answers 200 and ends at once', async () => {
    const r = await t.call({ path: `${CM}?watch=1&timeoutSeconds=-1&resourceVersion=0` });
    assert.equal(r.status, 200, r.body);
  });

  it('a body labelled gzip that is not gzip is read as it is, as upstream does', async () => {
    const r = await t.call({
      method: 'POST',
      path: CM,
      body: '{"metadata":{"name":"plain"}}',
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(r.status, 201, r.body);
  });

  it('resourceVersionMatch without resourceVersion is 400, as the spec says', async () => {
    refused(
      await t.call({ path: `${CM}?resourceVersionMatch=NotOlderThan` }),
      400,
      'BadRequest',
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    refused(
      await t.call({ path: `${CM}?resourceVersionMatch=Exact&resourceVersion=0` }),
      400,
      'BadRequest',
      'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
  });

  for (const [type, body] of [
    ['merge-patch+json', '{}'],
    ['strategic-merge-patch+json', '{"data":{"k":"v"}}'],
    ['json-patch+json', '[]'],
  ] as const) {
    it(`a no-op ${type} right after a create writes no new revision`, async () => {
      const name = `noop-${type.split('-')[0]}`;
      const created = await t.call({
        method: 'POST',
        path: CM,
        body: `{"metadata":{"name":"${name}"},"data":{"k":"v"}}`,
      });
      const rv = (created.json().metadata as { resourceVersion: string }).resourceVersion;
      const r = await t.call({
        method: 'PATCH',
        path: `${CM}/${name}`,
        body,
        headers: { 'content-type': `application/${type}` },
      });
      assert.equal(r.status, 200, r.body);
      assert.equal((r.json().metadata as { resourceVersion: string }).resourceVersion, rv);
    });
  }
});
