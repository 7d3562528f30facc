// kill -9 during a write load: every acknowledged write must survive and the file must be intact.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openSqlite } from './driver.ts';
import { openSqliteStorage } from './index.ts';

const writer = fileURLToPath(new URL('../testing/sqlite-crash-writer.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('after kill -9 mid-load, every acknowledged write is there and nothing is torn', async () => {
  const path = join(dir, 'crash.db');
  const child = spawn(process.execPath, ['--import', 'tsx', writer, path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const acked = new Map<string, number>();
  let maxCount = 0;
  let maxRevision = 0;
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const [kind, a, rv] = line.split(' ');
    maxRevision = Math.max(maxRevision, Number(rv));
    if (kind === 'ack') acked.set(a, Number(rv));
    else if (kind === 'count') maxCount = Math.max(maxCount, Number(a));
    if (acked.size >= 3000) {
      child.kill('SIGKILL');
      break;
    }
  }
  await exited;
  assert.ok(acked.size >= 3000, `writer died early after ${acked.size} acks`);

  const raw = openSqlite(path, undefined, { readonly: true });
  assert.equal(raw.pragma('integrity_check'), 'ok');
  // Nothing was compacted, so a gapless log has exactly one row per revision 1..max.
  const span = raw
    .prepare('SELECT count(*) AS n, min(revision) AS lo, max(revision) AS hi FROM log')
    .get() as {
    n: number;
    lo: number;
    hi: number;
  };
  assert.deepEqual([span.lo, span.n], [1, span.hi]);
  raw.close();

  const store = openSqliteStorage({ path });
  try {
    for (const [key, rv] of acked) {
      const got = await store.get(key);
      assert.equal(Number(got.metadata?.resourceVersion), rv, key);
    }
    const counter = await store.get('/crash/counter');
    assert.ok((counter.data as { n: number }).n >= maxCount);
    const current = await store.currentRevision();
    assert.ok(current >= maxRevision);
    assert.equal(current, span.hi);
    const all = await store.list('/crash/');
    assert.ok(all.items.length >= acked.size);
    const next = await store.create('/crash/after', { metadata: { name: 'after' } });
    assert.equal(Number(next.metadata?.resourceVersion), current + 1);
  } finally {
    await store.close();
  }
});
