import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { latestResults, renderReport, writeReport, writeStandingCharts } from './report.ts';
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

  it('keeps an HTTP/2 or protobuf run of a scenario beside its default run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      const put = (at: string, protocol: string, encoding: string, markdown: string) =>
        writeResult(dir, 'watch', new Date(at), {
          scenario: 'watch',
          startedAt: at,
          options: { backends: ['sqlite'], quick: false, protocol, encoding },
          machine,
          markdown,
        });
      put('2026-01-01T00:00:00.000Z', 'http1', 'json', '| json old |');
      put('2026-01-02T00:00:00.000Z', 'http1', 'json', '| json |');
      put('2026-01-03T00:00:00.000Z', 'http2', 'json', '| h2 |');
      put('2026-01-04T00:00:00.000Z', 'http1', 'protobuf', '| pb |');
      const text = renderReport(latestResults(dir));
      assert.match(text, /^## watch$/m);
      assert.match(text, /^## watch \(HTTP\/2\)$/m);
      assert.match(text, /^## watch \(protobuf\)$/m);
      for (const figure of ['| json |', '| h2 |', '| pb |']) assert.ok(text.includes(figure), figure);
      assert.ok(!text.includes('| json old |'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps a get run comparing authentications beside the default get, the newest of them only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      const put = (at: string, markdown: string, auth?: string[]) =>
        writeResult(dir, 'get', new Date(at), {
          scenario: 'get',
          startedAt: at,
          options: { backends: ['sqlite'], quick: false, protocol: 'http1', auth },
          machine,
          markdown,
        });
      put('2026-01-01T00:00:00.000Z', '| admin |');
      put('2026-01-02T00:00:00.000Z', '| three kinds |', ['cert', 'static-token', 'sa-token']);
      put('2026-01-03T00:00:00.000Z', '| four kinds |', ['cert', 'static-token', 'sa-token', 'oidc-token']);
      const text = renderReport(latestResults(dir));
      assert.match(text, /^## get$/m);
      assert.match(text, /^## get \(authentication\)$/m);
      assert.ok(text.includes('| admin |') && text.includes('| four kinds |'), text);
      assert.ok(!text.includes('| three kinds |'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the sections of the standing report that have no result here', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      writeResult(dir, 'list', new Date('2026-01-05T00:00:00.000Z'), {
        scenario: 'list',
        startedAt: '2026-01-05T00:00:00.000Z',
        options: { backends: ['sqlite'], quick: false, protocol: 'http1' },
        machine,
        markdown: '| list new |',
      });
      const standing = renderReport([]).concat(
        '## create\n\nRan 2025-12-01 on an old machine.\n\n| create old |\n\n## list\n\n| list old |\n',
      );
      const text = renderReport(latestResults(dir), standing);
      assert.ok(text.includes('| create old |'), text);
      assert.ok(text.includes('| list new |'));
      assert.ok(!text.includes('| list old |'));
      assert.ok(text.indexOf('## create') < text.indexOf('## list'));
      assert.equal(renderReport(latestResults(dir), text), text, 'regenerating changes nothing');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('draws a chart per latency table into charts/ and links it under the table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      const table = '| server | p50 | p99 |\n| --- | ---: | ---: |\n| ours | 14 ms | 43 ms |';
      writeResult(join(dir, 'results'), 'get', new Date('2026-01-05T00:00:00.000Z'), {
        scenario: 'get',
        startedAt: '2026-01-05T00:00:00.000Z',
        options: { backends: ['sqlite'], quick: false, protocol: 'http1' },
        machine,
        markdown: `${table}\n\nNotes.\n`,
      });
      const reportPath = join(dir, 'REPORT.md');
      writeReport(join(dir, 'results'), reportPath);
      const text = readFileSync(reportPath, 'utf8');
      assert.ok(text.includes(`${table}\n\n![get: latency p50/p99 (ms)](charts/get.svg)\n\nNotes.`), text);
      assert.deepEqual(readdirSync(join(dir, 'charts')), ['get.svg']);
      assert.match(readFileSync(join(dir, 'charts', 'get.svg'), 'utf8'), /class="bar"/);
      assert.equal(
        renderReport(latestResults(join(dir, 'results')), text),
        text,
        'regenerating changes nothing',
      );
      rmSync(join(dir, 'charts'), { recursive: true });
      assert.deepEqual(writeStandingCharts(reportPath), [
        { heading: '## get', links: ['![get: latency p50/p99 (ms)](charts/get.svg)'] },
      ]);
      assert.equal(readFileSync(reportPath, 'utf8'), text, 'the standing report is left as it is');
      assert.deepEqual(readdirSync(join(dir, 'charts')), ['get.svg']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
