// A deleted Secret leaves the files: once compaction has passed its deletion, neither store.db nor
// store.db-wal holds its value or its name, even where earlier page images had already been
// checkpointed into the database file. Run on every driver this Node can load.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { availableDrivers, openSqlite } from './driver.ts';
import { openSqliteStorage } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-secure-delete-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const filler = (i: number): ApiObject => ({
  metadata: { name: `cm-${i}` },
  data: { pad: 'x'.repeat(900 + (i % 7) * 50) },
});

/** Which of `markers` occur in the database file or its WAL, with the file each was found in. */
function findMarkers(path: string, markers: string[]): string[] {
  const found: string[] = [];
  for (const file of [path, `${path}-wal`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    for (const m of markers) if (bytes.includes(m)) found.push(`${m} in ${file}`);
  }
  return found;
}

for (const driver of availableDrivers()) {
  describe(`deleted secrets leave the file (${driver})`, () => {
    it('after compaction past the deletion, no copy of a deleted secret is readable', async () => {
      const path = join(dir, `${driver.replace(':', '-')}.db`);
      const store = openSqliteStorage({ path, driver });
      // Unique markers: a fresh random token per secret, so nothing else in the file matches.
      const secrets = Array.from({ length: 60 }, (_, i) => ({
        key: `/secrets/default/gone-${randomBytes(6).toString('hex')}`,
        value: `SECRET-${randomBytes(12).toString('hex')}-${i}`,
      }));
      let fill = 0;
      try {
        // Secrets among other objects, each updated once, so their values sit in several revisions
        // and in pages shared with rows that stay.
        for (const s of secrets) {
          await store.create(s.key, { metadata: { name: s.key.split('/')[3] }, data: { token: s.value } });
          for (let i = 0; i < 3; i++) await store.create(`/configmaps/default/cm-${fill}`, filler(fill++));
        }
        for (const s of secrets) {
          await store.guaranteedUpdate(s.key, ({ current }) => ({
            ...current!,
            data: { token: `${s.value}-v2` },
          }));
        }
        // Push what is in the WAL into the database file first, as a checkpoint would have done
        // on a busy store: the old page images then live in store.db, not only in the WAL.
        const other = openSqlite(path, driver);
        other.pragma('wal_checkpoint(TRUNCATE)');
        other.close();
        const markers = secrets.flatMap((s) => [s.value, s.key.split('/')[3]]);
        assert.notDeepEqual(findMarkers(path, markers), [], 'the test writes its markers where it looks');

        for (const s of secrets) await store.delete(s.key);
        for (let i = 0; i < 20; i++) await store.create(`/configmaps/default/cm-${fill}`, filler(fill++));
        await store.compact(await store.currentRevision());

        // The store is still open: this is the file as anyone reading the disk would see it now.
        assert.deepEqual(findMarkers(path, markers), []);
        const listed = await store.list('/configmaps/default/');
        assert.equal(listed.items.length, fill);
      } finally {
        await store.close();
      }
    });
  });
}
