// Watch framing on canned responses (JSON lines split anywhere, protobuf frames, undecodable events,
// stop), then watches through the REST client where the server's limits show: a resourceVersion that has left
// the kept history comes back as an ERROR event carrying the 410 Expired Status, and watches beyond
// the server's streams-per-connection limit open another connection instead of waiting.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeStatus, encodeWatchFrame } from '../codec/protobuf/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import { resourceExpired, type Status } from '../machinery/status.ts';
import { UPSTREAM_ALIASES } from '../naming/index.ts';
import { startTestApiServer, type TestApiServer, waitFor } from '../server/testing/index.ts';
import type { WatchEvent, WatchStream } from './api.ts';
import { ClientCodec } from './client-codec.ts';
import { restOptionsFromPlatconfig } from './config.ts';
import { RestClient } from './rest-client.ts';
import type { StreamingResponse } from './transport.ts';
import { HttpWatchStream } from './watch-stream.ts';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

async function first(w: WatchStream): Promise<WatchEvent | undefined> {
  for await (const ev of w) {
    if (ev.type === 'BOOKMARK') continue;
    w.stop();
    return ev;
  }
  return undefined;
}

/** A response whose body is the given chunks, recording whether it was closed. */
function fakeResponse(chunks: Buffer[], contentType: string) {
  const state = { closed: false };
  const res: StreamingResponse = {
    status: 200,
    headers: { 'content-type': contentType },
    body: (async function* () {
      for (const c of chunks) yield c;
    })(),
    close: () => {
      state.closed = true;
    },
  };
  return { res, state };
}

async function all(w: WatchStream): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const ev of w) out.push(ev);
  return out;
}

describe('watch stream framing', () => {
  const codec = new ClientCodec();
  const line = (type: string, name: string) =>
    `${JSON.stringify({ type, object: { kind: 'ConfigMap', metadata: { name } } })}\n`;

  it('reads newline-delimited JSON split anywhere, multi-byte characters included', async () => {
    const text = line('ADDED', 'a') + line('MODIFIED', 'ü-b') + line('DELETED', 'c');
    const bytes = Buffer.from(text);
    const chunks = [
      bytes.subarray(0, 7),
      bytes.subarray(7, text.indexOf('ü') + 2),
      bytes.subarray(text.indexOf('ü') + 2),
    ];
    const { res, state } = fakeResponse(chunks, 'application/json');
    const evs = await all(new HttpWatchStream(res, 'application/json', codec));
    assert.deepEqual(
      evs.map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED a', 'MODIFIED ü-b', 'DELETED c'],
    );
    assert.ok(state.closed);
  });

  it('reports an undecodable event as an ERROR event with an InternalError Status, then ends', async () => {
    for (const body of [
      '{"type":"ADDED","object":{}}\nnot json\n',
      '{"type":"WHAT","object":{}}\n',
      '{"type":"ADDED"',
    ]) {
      const { res } = fakeResponse([Buffer.from(body)], 'application/json');
      const evs = await all(new HttpWatchStream(res, 'application/json', codec));
      const last = evs.at(-1);
      assert.equal(last?.type, 'ERROR', body);
      const status = last?.object as unknown as Status;
      assert.deepEqual([status.code, status.reason], [500, 'InternalError']);
      assert.match(String(status.message), /unable to decode an event from the watch stream: /);
    }
  });

  it('reads protobuf frames, a Status in an ERROR event included', async () => {
    const pb = UPSTREAM_ALIASES.protobufMediaType;
    const expired = resourceExpired('too old resource version: 1 (5)').status;
    const frame = encodeWatchFrame('ERROR', encodeStatus(expired as unknown as ApiObject));
    const { res } = fakeResponse([frame.subarray(0, 3), frame.subarray(3)], `${pb};stream=watch`);
    const evs = await all(
      new HttpWatchStream(res, `${pb};stream=watch`, new ClientCodec({ contentType: pb })),
    );
    assert.equal(evs.length, 1);
    const status = evs[0]?.object as unknown as Status;
    assert.deepEqual(
      [evs[0]?.type, status.code, status.reason, status.message],
      ['ERROR', 410, 'Expired', 'too old resource version: 1 (5)'],
    );
  });

  it('stop() ends the iteration and closes the response; an aborted signal stops it too', async () => {
    const { res, state } = fakeResponse(
      [Buffer.from(line('ADDED', 'a')), Buffer.from(line('ADDED', 'b'))],
      'application/json',
    );
    const w = new HttpWatchStream(res, 'application/json', codec);
    const seen: string[] = [];
    for await (const ev of w) {
      seen.push(String(ev.object.metadata?.name));
      w.stop();
    }
    assert.deepEqual([seen, state.closed], [['a'], true]);
    const aborted = fakeResponse([Buffer.from(line('ADDED', 'a'))], 'application/json');
    const w2 = new HttpWatchStream(aborted.res, 'application/json', codec, AbortSignal.abort());
    assert.deepEqual([await all(w2), aborted.state.closed], [[], true]);
  });
});

describe('watch streams against a server with short history and two streams per connection', () => {
  let t: TestApiServer;
  let client: RestClient;
  before(async () => {
    t = await startTestApiServer({ compactionIntervalMs: 300, http2MaxStreamsPerConnection: 2 });
    client = new RestClient(restOptionsFromPlatconfig(t.server.adminConfigPath));
  });
  after(async () => {
    client?.close();
    await t?.stop();
  });

  it('delivers 410 Expired as an ERROR event with its Status once the revision is compacted', async () => {
    const cms = client.resource(CONFIGMAPS, 'default');
    await cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'expire-0' } });
    const from = (await cms.list()).metadata.resourceVersion;
    let n = 0;
    // Each probe writes (so the history moves and the watch has an event) and watches from `from`.
    const ev = await waitFor(
      async () => {
        n++;
        await cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `expire-${n}` } });
        return first(await cms.watch({ resourceVersion: from }));
      },
      (e) => e?.type === 'ERROR',
      'a watch from a compacted revision to answer 410',
    );
    const status = ev?.object as unknown as Status;
    assert.deepEqual([status.kind, status.code, status.reason], ['Status', 410, 'Expired']);
    assert.match(String(status.message), /^too old resource version: \d+ \(\d+\)$/);
  });

  it('opens another connection when the streams of the first are all taken', async () => {
    const cms = client.resource(CONFIGMAPS, 'default');
    const from = (await cms.list()).metadata.resourceVersion;
    const watches = [];
    for (let i = 0; i < 3; i++) watches.push(await cms.watch({ resourceVersion: from }));
    await cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seen-by-all' } });
    const events = await Promise.all(watches.map(first));
    assert.deepEqual(
      events.map((e) => `${e?.type} ${e?.object.metadata?.name}`),
      Array(3).fill('ADDED seen-by-all'),
    );
    assert.ok(t.server.connectionStats().connections >= 2);
  });
});
