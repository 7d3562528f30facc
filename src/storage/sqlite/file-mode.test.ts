// The store's files are private to their owner whatever the directory's mode and the umask.

import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openSqliteStorage } from './index.ts';

describe('store file modes', () => {
  it('creates store.db and its WAL 0600 under a permissive umask and directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-mode-'));
    chmodSync(dir, 0o777);
    const umask = process.umask(0);
    try {
      const path = join(dir, 'store.db');
      const store = openSqliteStorage({ path });
      await store.create('/s/a', { metadata: { name: 'a' }, data: { k: 'v' } });
      for (const f of [path, `${path}-wal`]) {
        assert.ok(existsSync(f), f);
        assert.equal(statSync(f).mode & 0o777, 0o600, f);
      }
      await store.close();
    } finally {
      process.umask(umask);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('makes an existing store that others could read private again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-mode-'));
    try {
      const path = join(dir, 'store.db');
      writeFileSync(path, '');
      chmodSync(path, 0o644);
      const store = openSqliteStorage({ path });
      await store.close();
      assert.equal(statSync(path).mode & 0o777, 0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
