// Watch delivery under a burst of changes: a busy stream's events wait in its watch until the
// writer's turn and go out together, and none is lost, reordered or sent twice on the way, whether
// the watch hands its events over from a queue or from a streaming list's iteration.

import assert from 'node:assert/strict';
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

  // Bounded: events a watch never hands over would keep its response open past its timeout.
  it('a burst of changes reaches every watcher whole and in order, then the closing bookmark', {
    timeout: 15_000,
  }, async () => {
    const start = await t.call({ path: CM });
    const from = (start.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const queries = [
      `resourceVersion=${from}&allowWatchBookmarks=true`,
      'resourceVersion=0&allowWatchBookmarks=true&labelSelector=burst%3Dyes',
      'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
    ];
    const watches = queries.map((q) => t.call({ path: `${CM}?watch=true&timeoutSeconds=2&${q}` }));
    await new Promise((r) => setTimeout(r, 300));
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
    const last = String(revisions[revisions.length - 1]);

    for (const [i, reply] of (await Promise.all(watches)).entries()) {
      assert.equal(reply.status, 200, queries[i]);
      const events = eventsOf(reply.body).filter((e) => {
        // The streaming list's own bookmark closes its (empty) initial state.
        const initialEnd = e.type === 'BOOKMARK' && e.object.metadata.annotations !== undefined;
        return !initialEnd;
      });
      const added = events.filter((e) => e.type === 'ADDED');
      assert.deepEqual(
        added.map((e) => Number(e.object.metadata.resourceVersion)),
        revisions,
        `${queries[i]}: every change once, in order`,
      );
      const closing = events[events.length - 1];
      assert.equal(closing.type, 'BOOKMARK', queries[i]);
      assert.equal(closing.object.metadata.resourceVersion, last, queries[i]);
    }
  });
});
