import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compactIsoTimestamp, resultFileName, writeResult } from './results.ts';

const date = new Date('2025-01-02T03:04:05.678Z');

describe('result files', () => {
  it('are named by a colon-free ISO timestamp that sorts by time', () => {
    assert.equal(compactIsoTimestamp(date), '20250102T030405.678Z');
    assert.equal(resultFileName(date, 'storage'), '20250102T030405.678Z-storage.json');
    const later = resultFileName(new Date('2025-01-10T00:00:00.000Z'), 'storage');
    assert.ok(resultFileName(date, 'storage') < later);
  });

  it('refuse scenario names that could escape the directory', () => {
    assert.throws(() => resultFileName(date, '../x'), RangeError);
  });

  it('are written as JSON into a created directory and never overwritten', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
    try {
      const target = join(dir, 'nested');
      const path = writeResult(target, 'storage', date, { ok: 1 });
      assert.deepEqual(readdirSync(target), ['20250102T030405.678Z-storage.json']);
      assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { ok: 1 });
      assert.throws(() => writeResult(target, 'storage', date, { ok: 2 }), /EEXIST/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
