// A client-go reflector's loop against the server: list at "0", watch with bookmarks from the
// list's revision, and, once that revision has left the kept history, 410 Expired and a re-list.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from './testing/index.ts';

const CM = '/api/v1/namespaces/default/configmaps';
type Ev = {
  type: string;
  object: { code?: number; reason?: string; message?: string; metadata?: { name?: string } };
};
const lines = (body: string): Ev[] =>
  body
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

describe('reflector loop', () => {
  let t: TestApiServer;
  before(async () => {
    t = await startTestApiServer({ compactionIntervalMs: 300 });
  });
  after(() => t.stop());

  const create = (name: string) =>
    t.call({ method: 'POST', path: CM, body: JSON.stringify({ metadata: { name } }) });

  it('lists, watches from the list, and after compaction gets 410 and lists again', async () => {
    await create('one');
    const listed = (await t.call({ path: `${CM}?resourceVersion=0` })).json() as {
      metadata: { resourceVersion: string };
    };
    const from = listed.metadata.resourceVersion;

    const watching = t.call({
      path: `${CM}?watch=true&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion=${from}`,
    });
    await new Promise((r) => setTimeout(r, 150));
    await create('two');
    const seen = lines((await watching).body);
    assert.deepEqual(
      seen.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED two'],
    );

    // Let the history move past `from`: more writes, and time for the compactor.
    for (const name of ['three', 'four']) await create(name);
    await new Promise((r) => setTimeout(r, 1500));
    await create('five');

    const expired = lines(
      (await t.call({ path: `${CM}?watch=true&allowWatchBookmarks=true&resourceVersion=${from}` })).body,
    );
    assert.equal(expired.length, 1, JSON.stringify(expired));
    assert.equal(expired[0].type, 'ERROR');
    assert.equal(expired[0].object.code, 410);
    assert.equal(expired[0].object.reason, 'Expired');
    assert.match(String(expired[0].object.message), /^too old resource version: \d+ \(\d+\)$/);

    const relisted = (await t.call({ path: `${CM}?resourceVersion=0` })).json() as {
      items: { metadata: { name: string } }[];
    };
    assert.deepEqual(relisted.items.map((i) => i.metadata.name).sort(), [
      'five',
      'four',
      'one',
      'three',
      'two',
    ]);
  });
});
