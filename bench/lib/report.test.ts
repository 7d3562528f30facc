import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { latestResults, renderReport } from './report.ts';
import { writeResult } from './results.ts';

const machine = {
  cpuModel: 'Test CPU',
  cores: 2,
  memoryBytes: 2 ** 30,
  nodeVersion: 'v20.0.0',
  platform: 'linux',
  arch: 'x64',
  osRelease: '6',
};

describe('report', () => {
  it('keeps the newest full run of each scenario and renders one section per scenario', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      const put = (scenario: string, at: string, markdown: string, quick = false) =>
        writeResult(dir, scenario, new Date(at), {
          scenario,
          startedAt: at,
          options: { backends: ['sqlite'], quick, protocol: 'http1' },
          machine,
          markdown,
        });
      put('get', '2026-01-01T00:00:00.000Z', '| old |');
      put('get', '2026-01-02T00:00:00.000Z', '| new |');
      put('get', '2026-01-03T00:00:00.000Z', '| quick |', true);
      put('create', '2026-01-01T00:00:00.000Z', '| create |');
      const latest = latestResults(dir);
      assert.deepEqual(
        latest.map((r) => r.scenario),
        ['create', 'get'],
      );
      const text = renderReport(latest);
      assert.match(text, /^## get$/m);
      assert.match(text, /\| new \|/);
      assert.doesNotMatch(text, /\| old \||\| quick \|/);
      assert.match(text, /backends: sqlite; HTTP\/1\.1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
