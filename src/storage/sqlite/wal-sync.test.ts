// Off-thread WAL syncing: a committed batch is neither acknowledged nor visible (revision, reads,
// watch events) until its sync finishes, and the commit and the sync count as awaited storage work
// while they are under way; batches are released in commit order; a failed sync fails its writes
// and every later one. And on a real file: the connection commits without syncing and
// hands the sync to the WAL syncer.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { storageWorkAwaited } from '../awaited.ts';
import { UnavailableError } from '../errors.ts';
import { KeyIndex } from './key-index.ts';
import { openDatabase, prepareStatements } from './schema.ts';
import { type WalSync, walSyncFor } from './wal-sync.ts';
import { type CommittedChange, WriteBatcher, type WriteOutcome } from './write-batcher.ts';

/** A syncer the test finishes by hand, one requested sync at a time. */
class ManualSync implements WalSync {
  readonly requested: ((err: Error | null) => void)[] = [];
  sync(done: (err: Error | null) => void): void {
    this.requested.push(done);
  }
  finish(err: Error | null = null): void {
    const done = this.requested.shift();
    assert.ok(done, 'no sync was requested');
    done(err);
  }
  close(): void {}
}

function setup() {
  const db = openDatabase(':memory:');
  const stmts = prepareStatements(db);
  const keys = new KeyIndex(db, stmts);
  const published: CommittedChange[][] = [];
  const sync = new ManualSync();
  const batcher = new WriteBatcher(db, stmts, keys, 0, (c) => published.push(c), sync);
  /** The key's newest state at the batcher's visible revision, as the storage reads it. */
  const visible = (key: string) => keys.state(key, batcher.currentRevision)?.revision;
  /** As the storage closes: the key index's pending flush (a timer) first, then the connection. */
  const close = () => {
    keys.flush();
    db.close();
  };
  return { close, batcher, sync, published, visible };
}

/** Whether the promise has settled, after the turns of the event loop a batch takes. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

const create = (key: string) => ({ kind: 'create' as const, key, value: `{"k":"${key}"}`, expect: 0 });

describe('write batcher with off-thread syncing', () => {
  it('acknowledges, shows and publishes a batch only once its sync finished', async () => {
    const { close, batcher, sync, published, visible } = setup();
    const write = batcher.submit(create('/a'));
    assert.equal(storageWorkAwaited(), true, 'a commit is due: the loop is told');
    assert.equal(await settled(write), false);
    assert.equal(storageWorkAwaited(), true, 'the sync runs: the loop is told');
    assert.equal(sync.requested.length, 1, 'the committed batch asked for one sync');
    assert.equal(batcher.currentRevision, 0);
    assert.equal(visible('/a'), undefined);
    assert.equal(published.length, 0);

    sync.finish();
    assert.equal(storageWorkAwaited(), false, 'nothing is under way any more');
    const outcome = (await write) as Extract<WriteOutcome, { ok: true }>;
    assert.equal(outcome.change.revision, 1);
    assert.equal(batcher.currentRevision, 1);
    assert.equal(visible('/a'), 1);
    assert.deepEqual(
      published.map((b) => b.map((c) => c.key)),
      [['/a']],
    );
    close();
  });

  it('writes made while a sync runs commit together after it, and a conflict waits for its sync', async () => {
    const { close, batcher, sync, published } = setup();
    const first = batcher.submit(create('/a'));
    await settled(first);
    const second = batcher.submit({ kind: 'update', key: '/a', value: '{"k":"a2"}', expect: 1 });
    const stale = batcher.submit({ kind: 'update', key: '/a', value: '{"k":"a3"}', expect: 0 });
    await settled(second);
    assert.equal(sync.requested.length, 1, 'nothing more is committed while the first sync runs');

    sync.finish();
    await first;
    assert.equal(sync.requested.length, 1, 'the gathered writes committed as one batch');
    assert.equal(await settled(second), false, 'the second batch waits for its own sync');
    assert.equal(batcher.currentRevision, 1);
    sync.finish();
    assert.equal(((await second) as Extract<WriteOutcome, { ok: true }>).change.revision, 2);
    assert.deepEqual(await stale, { ok: false, conflict: true });
    assert.equal(batcher.currentRevision, 2);
    assert.deepEqual(
      published.map((b) => b.map((c) => c.revision)),
      [[1], [2]],
    );
    close();
  });

  it('a failed sync fails its writes and refuses every later one', async () => {
    const { close, batcher, sync, published } = setup();
    const lost = batcher.submit(create('/a'));
    await settled(lost);
    const queuedBehind = batcher.submit(create('/b'));
    await settled(queuedBehind);
    sync.finish(new Error('EIO: i/o error'));
    await assert.rejects(lost, (err: Error) => {
      assert.ok(err instanceof UnavailableError);
      assert.match(err.message, /storage sync failed: EIO/);
      return true;
    });
    // Gathered behind the failed sync, it is refused without being committed.
    await assert.rejects(queuedBehind, UnavailableError);
    assert.equal(sync.requested.length, 0);
    await assert.rejects(batcher.submit(create('/c')), UnavailableError);
    assert.equal(batcher.currentRevision, 0);
    assert.equal(published.length, 0);
    close();
  });

  it('close waits for the last sync', async () => {
    const { close, batcher, sync } = setup();
    const write = batcher.submit(create('/a'));
    const closing = batcher.close();
    assert.equal(await settled(closing), false);
    while (sync.requested.length > 0) sync.finish();
    await closing;
    await write;
    assert.equal(batcher.currentRevision, 1);
    close();
  });
});

describe('walSyncFor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-walsync-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a WAL file database commits without syncing and syncs through the syncer', async () => {
    const path = join(dir, 'store.db');
    const db = openDatabase(path);
    assert.equal(db.pragma('synchronous'), 2, 'FULL until a syncer takes over');
    const sync = walSyncFor(db, path);
    assert.ok(sync);
    assert.equal(db.pragma('synchronous'), 1, 'NORMAL: the syncer does the fsync');
    const results = await Promise.all(
      [0, 1, 2].map(() => new Promise<Error | null>((resolve) => sync.sync(resolve))),
    );
    assert.deepEqual(results, [null, null, null]);
    sync.close();
    db.close();
  });

  it('an in-memory database keeps syncing inside each commit', () => {
    const db = openDatabase(':memory:');
    assert.equal(walSyncFor(db, ':memory:'), undefined);
    db.close();
  });
});
