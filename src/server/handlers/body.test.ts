// Reading a request body: a body cut short by the client is never acted on (the read fails with
// a premature close, so the prefix read so far is never decoded).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, constants } from 'node:http2';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../testing/index.ts';

const CM = '/api/v1/namespaces/default/configmaps';

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
    for (const deadline = Date.now() + 30_000; t.server.connectionStats().handlers > 0; ) {
      if (Date.now() > deadline) assert.fail('the handler never finished');
      await new Promise((r) => setTimeout(r, 10));
    }
    session.close();
    assert.equal((await t.call({ path: `${CM}/cut` })).status, 404);
  });
});
