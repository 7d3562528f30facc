// Watch delivery under a burst of changes: a busy stream's events wait in its watch until the
// writer's turn and go out together, and none is lost, reordered or sent twice on the way, whether
// the watch hands its events over from a queue or from a streaming list's iteration.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../testing/index.ts';

const CM = '/api/v1/namespaces/burst/configmaps';
const CHANGES = 60;

type Event = {
  type: string;
  object: { metadata: { name?: string; resourceVersion: string; annotations?: Record<string, string> } };
};

const eventsOf = (body: string): Event[] =>
  body
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Event);

describe('watch delivery', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer();
    await t.call({ method: 'POST', path: '/api/v1/namespaces', body: '{"metadata":{"name":"burst"}}' });
  });
  after(() => t.stop());

  /** A watch whose response has started; `body` resolves with the whole stream once it ends. */
  function openWatch(query: string): Promise<{ body: Promise<string> }> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: t.server.port,
          path: `${CM}?watch=true&${query}`,
          ca: readFileSync(join(t.dir, 'ca.crt')),
          cert: readFileSync(join(t.dir, 'admin.crt')),
          key: readFileSync(join(t.dir, 'admin.key')),
          agent: false,
        },
        (res) => {
          assert.equal(res.statusCode, 200, query);
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            body += d;
          });
          resolve({ body: new Promise((done) => res.on('end', () => done(body))) });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  // The watches time out after 2 s, which on a busy machine may come before the burst is over:
  // like a client, the test then watches again from the last revision it was told about, and
  // checks that together the watches delivered every change once, in order, each ending in a
  // bookmark at the newest revision it had reached.
  it('a burst of changes reaches every watcher whole and in order, each watch closing with a bookmark', {
    timeout: 120_000,
  }, async () => {
    const start = await t.call({ path: CM });
    const from = (start.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const queries = [
      { first: `resourceVersion=${from}&allowWatchBookmarks=true`, more: '' },
      {
        first: 'resourceVersion=0&allowWatchBookmarks=true&labelSelector=burst%3Dyes',
        more: '&labelSelector=burst%3Dyes',
      },
      {
        first: 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
        more: '',
      },
    ];
    const watches = await Promise.all(queries.map((q) => openWatch(`timeoutSeconds=2&${q.first}`)));
    const created = await Promise.all(
      Array.from({ length: CHANGES }, (_, i) =>
        t.call({
          method: 'POST',
          path: CM,
          body: JSON.stringify({ metadata: { name: `c${i}`, labels: { burst: 'yes' } } }),
        }),
      ),
    );
    const revisions = created
      .map((r) => Number((r.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion))
      .sort((a, b) => a - b);
    const last = revisions[revisions.length - 1];

    for (const [i, q] of queries.entries()) {
      const added: number[] = [];
      let body = await watches[i].body;
      for (let round = 0; ; round++) {
        assert.ok(round < 100, `${q.first}: the watches keep ending short of the burst`);
        const events = eventsOf(body).filter((e) => {
          // The streaming list's own bookmark closes its (empty) initial state.
          const initialEnd = e.type === 'BOOKMARK' && e.object.metadata.annotations !== undefined;
          return !initialEnd;
        });
        if (events.length === 0) {
          // Ended before anything happened, with nothing to resume from: start over, as a client would.
          assert.equal(added.length, 0, q.first);
          body = await (await openWatch(`timeoutSeconds=2&${q.first}`)).body;
          continue;
        }
        const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
        added.push(
          ...events.filter((e) => e.type === 'ADDED').map((e) => Number(e.object.metadata.resourceVersion)),
        );
        const closing = events[events.length - 1];
        assert.equal(closing?.type, 'BOOKMARK', `${q.first}: a watch ends with its closing bookmark`);
        assert.equal(Number(closing.object.metadata.resourceVersion), Math.max(...rvs), q.first);
        if (added.length > 0 && added[added.length - 1] >= last) {
          assert.equal(Number(closing.object.metadata.resourceVersion), last, q.first);
          break;
        }
        const resume = closing.object.metadata.resourceVersion;
        body = await (
          await openWatch(`timeoutSeconds=2&resourceVersion=${resume}&allowWatchBookmarks=true${q.more}`)
        ).body;
      }
      assert.deepEqual(added, revisions, `${q.first}: every change once, in order`);
    }
  });
});
