// Reading a request body: a body cut short by the client is never acted on (the read fails with
// a premature close, so the prefix read so far is never decoded); a large YAML body, decoded on
// a worker thread, is answered byte for byte as the synchronous decoder would have it answered.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, constants } from 'node:http2';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { YAML_SERIALIZER } from '../../codec/serializers.ts';
import { startTestApiServer, type TestApiServer, waitUntil, warningsOf } from '../testing/index.ts';
import { BREATHE_FROM_BYTES } from './breathe.ts';

const CM = '/api/v1/namespaces/default/configmaps';

/** A ConfigMap in YAML large enough to be decoded on the worker thread; line 7 repeats line 6's key. */
function largeYaml(name: string, tail = ''): string {
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, 'data:'];
  lines.push('  k0: first', '  k0: again');
  for (let i = 1, size = 0; size < BREATHE_FROM_BYTES; i++)
    size += lines[lines.push(`  k${i}: v`) - 1].length + 1;
  return `${lines.join('\n')}\n${tail}`;
}

describe('request bodies', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
  });
  after(() => t.stop());

  it('an HTTP/2 body whose stream is reset before its declared end creates nothing, though its prefix parses', async () => {
    const session = connect(t.server.url, {
      ca: readFileSync(join(t.dir, 'ca.crt')),
      cert: readFileSync(join(t.dir, 'admin.crt')),
      key: readFileSync(join(t.dir, 'admin.key')),
    });
    const prefix = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cut"}}';
    const stream = session.request({
      ':method': 'POST',
      ':path': CM,
      'content-type': 'application/json',
      'content-length': String(prefix.length + 1000),
    });
    stream.on('error', () => {});
    await new Promise<void>((done) => stream.write(prefix, () => done()));
    // The server has the prefix once a ping sent after it comes back.
    await new Promise<void>((done) => session.ping(() => done()));
    const closed = new Promise((done) => stream.on('close', done));
    stream.close(constants.NGHTTP2_CANCEL);
    await closed;
    // Whatever the handler did with it is done once the server has no handler running.
    await waitUntil(() => t.server.connectionStats().handlers === 0, 'the handler to finish');
    session.close();
    assert.equal((await t.call({ path: `${CM}/cut` })).status, 404);
  });

  it('a large YAML body decodes as a small one: its repeated keys, its errors, its value', async () => {
    const post = (body: string, query = '') =>
      t.call({
        method: 'POST',
        path: `${CM}${query}`,
        body,
        headers: { 'content-type': 'application/yaml' },
      });
    const strict = await post(largeYaml('big-strict'), '?fieldValidation=Strict');
    assert.equal(strict.status, 400, strict.body);
    assert.equal(
      (strict.json() as { message: string }).message,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: yaml: unmarshal errors:\n  line 7: key "k0" already set in map',
    );
    const warned = await post(largeYaml('big-warn'));
    assert.equal(warned.status, 201, warned.body);
    assert.deepEqual(warningsOf(warned), ['line 7: key "k0" already set in map']);
    const ignored = await post(largeYaml('big-ignore'), '?fieldValidation=Ignore');
    assert.equal(ignored.status, 201, ignored.body);
    const data = (ignored.json() as { data: Record<string, string> }).data;
    assert.equal(data.k0, 'again');
    assert.equal(data.k1, 'v');

    const invalid = largeYaml('big-invalid', '\tk: tab-indented\n');
    let expected = '';
    try {
      YAML_SERIALIZER.decodeChecked(invalid);
    } catch (err) {
      expected = (err as Error).message;
    }
    assert.notEqual(expected, '');
    const head = Buffer.from(invalid).subarray(0, 30).toString('hex');
    for (const query of ['', '?fieldValidation=Ignore']) {
      const refused = await post(invalid, query);
      assert.equal(refused.status, 400, refused.body);
      assert.equal(
        (refused.json() as { message: string }).message,
        `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; ${expected} (${head} ...)`,
      );
    }
  });
});
