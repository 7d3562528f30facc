// Watches through the REST client where the server's limits show: a resourceVersion that has left
// the kept history comes back as an ERROR event carrying the 410 Expired Status, and watches beyond
// the server's streams-per-connection limit open another connection instead of waiting.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Status } from '../machinery/status.ts';
import { startTestApiServer, type TestApiServer, waitFor } from '../server/testing/index.ts';
import type { WatchEvent, WatchStream } from './api.ts';
import { restOptionsFromPlatconfig } from './config.ts';
import { RestClient } from './rest-client.ts';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

async function first(w: WatchStream): Promise<WatchEvent | undefined> {
  for await (const ev of w) {
    if (ev.type === 'BOOKMARK') continue;
    w.stop();
    return ev;
  }
  return undefined;
}

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
