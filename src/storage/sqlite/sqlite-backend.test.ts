// Behaviour specific to the SQLite backend: restarts, the deferred key index, and compaction by age.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { isStorageError } from '../errors.ts';
import { openSqlite } from './driver.ts';
import { openSqliteStorage } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-sqlite-backend-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newPath = () => join(dir, `s${n++}.db`);
const cm = (name: string, data: Record<string, string> = {}): ApiObject => ({ metadata: { name }, data });
const rv = (o: ApiObject) => Number(o.metadata?.resourceVersion);

describe('sqlite backend', () => {
  it('a reopened store has every object, its revision, and its history', async () => {
    const path = newPath();
    const s1 = openSqliteStorage({ path });
    const a = await s1.create('/r/a', cm('a', { v: '1' }));
    await s1.guaranteedUpdate('/r/a', ({ current }) => ({ ...current!, data: { v: '2' } }));
    await s1.create('/r/b', cm('b'));
    await s1.delete('/r/b');
    const last = await s1.currentRevision();
    await s1.close();

    const s2 = openSqliteStorage({ path });
    try {
      assert.equal(await s2.currentRevision(), last);
      assert.deepEqual((await s2.get('/r/a')).data, { v: '2' });
      assert.deepEqual((await s2.get('/r/a', { at: { kind: 'exact', revision: rv(a) } })).data, { v: '1' });
      assert.deepEqual(
        (await s2.list('/r/')).items.map((o) => o.metadata?.name),
        ['a'],
      );
      const next = await s2.create('/r/c', cm('c'));
      assert.equal(rv(next), last + 1);
    } finally {
      await s2.close();
    }
  });

  it('rebuilds the key index from the log when the index fell behind (as after a crash)', async () => {
    const path = newPath();
    const s1 = openSqliteStorage({ path });
    for (let i = 0; i < 20; i++) await s1.create(`/r/k${String(i).padStart(2, '0')}`, cm(`k${i}`));
    await s1.delete('/r/k05');
    await s1.close();
    // Forget the index entirely: it is derived from the log.
    const raw = openSqlite(path);
    raw.exec("DELETE FROM keyidx; UPDATE meta SET value = 0 WHERE name = 'indexed'");
    raw.close();

    const s2 = openSqliteStorage({ path });
    try {
      const listed = await s2.list('/r/');
      assert.equal(listed.items.length, 19);
      await assert.rejects(s2.get('/r/k05'), (e) => isStorageError(e, 'KeyNotFound'));
      assert.equal(await s2.count('/r/'), 19);
    } finally {
      await s2.close();
    }
  });

  it('reads merge indexed entries with fresh, not yet indexed ones, at any revision', async () => {
    const s = openSqliteStorage({ path: newPath() });
    try {
      for (let i = 0; i < 6; i++) await s.create(`/m/k${i}`, cm(`k${i}`, { v: 'old' }));
      const before = await s.currentRevision();
      // Wait for the background flush to move these entries into the index table.
      await new Promise((r) => setTimeout(r, 400));
      await s.guaranteedUpdate('/m/k2', ({ current }) => ({ ...current!, data: { v: 'new' } }));
      await s.delete('/m/k4');
      await s.create('/m/k3a', cm('k3a'));
      const now = await s.list('/m/');
      assert.deepEqual(
        now.items.map((o) => `${o.metadata?.name}:${(o.data as { v?: string }).v ?? ''}`),
        ['k0:old', 'k1:old', 'k2:new', 'k3:old', 'k3a:', 'k5:old'],
      );
      const then = await s.list('/m/', { at: { kind: 'exact', revision: before } });
      assert.deepEqual(
        then.items.map((o) => `${o.metadata?.name}:${(o.data as { v?: string }).v}`),
        ['k0:old', 'k1:old', 'k2:old', 'k3:old', 'k4:old', 'k5:old'],
      );
      const page = await s.list('/m/', { limit: 2 });
      assert.equal(page.remainingItemCount, 4);
      assert.equal(await s.count('/m/'), 6);
    } finally {
      await s.close();
    }
  });

  it('compacts history older than the window on its own, in batches larger than one', async () => {
    const s = openSqliteStorage({ path: newPath(), compactionWindowMs: 200, compactionIntervalMs: 100 });
    try {
      const first = await s.create('/w/a', cm('a', { v: '0' }));
      for (let i = 1; i <= 2500; i++) {
        await s.guaranteedUpdate('/w/a', ({ current }) => ({ ...current!, data: { v: String(i) } }));
      }
      const deadline = Date.now() + 30_000;
      let compacted = false;
      while (!compacted && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        try {
          await s.get('/w/a', { at: { kind: 'exact', revision: rv(first) } });
        } catch (err) {
          compacted = isStorageError(err, 'Compacted');
        }
      }
      assert.ok(compacted, 'history was not compacted within 30 s');
      assert.deepEqual((await s.get('/w/a')).data, { v: '2500' });
    } finally {
      await s.close();
    }
  });

  it('a write after close fails Unavailable', async () => {
    const s = openSqliteStorage({ path: newPath() });
    await s.close();
    await assert.rejects(s.create('/x', cm('x')), (e) => isStorageError(e, 'Unavailable'));
    await assert.rejects(s.get('/x'), (e) => isStorageError(e, 'Unavailable'));
  });
});
