import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStorageConformance } from '../testing/conformance.ts';
import { openSqliteStorage } from './index.ts';

let dir = '';
let n = 0;

runStorageConformance('sqlite', {
  async setup() {
    dir = mkdtempSync(join(tmpdir(), 'apiserver-test-sqlite-'));
  },
  async teardown() {
    rmSync(dir, { recursive: true, force: true });
  },
  async open() {
    return openSqliteStorage({ path: join(dir, `store-${n++}.db`), progressNotifyIntervalMs: 200 });
  },
  progressNotifyWithinMs: 400,
});
