// Charts from the report's own tables: durations read from cells, percentile columns found by
// header, rows labelled by their text columns, links placed under their tables.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latencyTables, parseDurationMs, sectionCharts, slugOf, withChartLinks } from './latency-charts.ts';
import { renderTable } from './table.ts';

const table = renderTable({
  headers: ['server', 'case', 'ops/s', 'p50', 'p90', 'p99', 'p99 after warm-up', 'failed'],
  rows: [
    [
      'ours (sqlite)',
      'gets | 64',
      '1,962 (1,860–2,046)',
      '29.4 ms (27.9–31.2)',
      '41 ms',
      '1.2 s (1.1–1.3)',
      '9 ms',
      '0',
    ],
    ['ours (etcd3)', 'gets', '654', '850 µs (800–900)', '', '188 ms', '9 ms', '0'],
    ['no figures', 'x', '1', 'n/a', '', '', '', '0'],
  ],
  align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
});

describe('latency charts', () => {
  it('reads the leading duration of a cell in milliseconds', () => {
    assert.equal(parseDurationMs('29.4 ms (27.9–31.2)'), 29.4);
    assert.equal(parseDurationMs('1,204 ms'), 1204);
    assert.equal(parseDurationMs('1.2 s'), 1200);
    assert.equal(parseDurationMs('850 µs (800–900)'), 0.85);
    assert.equal(parseDurationMs('1,962 (1,860–2,046)'), undefined);
    assert.equal(parseDurationMs('107.3% (88.1–188.1)'), undefined);
    assert.equal(parseDurationMs(''), undefined);
  });

  it('finds the percentile columns and labels rows by their text columns', () => {
    const [t, ...rest] = latencyTables(`Intro.\n\n${table}\n\nNotes.`);
    assert.equal(rest.length, 0);
    assert.deepEqual(t.series, ['p50', 'p90', 'p99']);
    assert.deepEqual(t.groups, [
      { label: 'ours (sqlite) · gets | 64', values: [29.4, 41, 1200] },
      { label: 'ours (etcd3) · gets', values: [0.85, undefined, 188] },
    ]);
    assert.equal(t.lastLine, 2 + 4);
  });

  it('takes `delivery p99` as p99 and leaves tables without percentiles alone', () => {
    const watch = renderTable({
      headers: ['server', 'delivery p50', 'delivery p99'],
      rows: [['a', '14 ms', '43 ms']],
      align: ['left', 'right', 'right'],
    });
    const plain = renderTable({ headers: ['server', 'ops/s'], rows: [['a', '1']], align: ['left', 'right'] });
    const tables = latencyTables(`${plain}\n\n${watch}`);
    assert.equal(tables.length, 1);
    assert.deepEqual(tables[0].series, ['p50', 'p99']);
    assert.deepEqual(tables[0].groups, [{ label: 'a', values: [14, 43] }]);
  });

  it('names a section’s charts after its heading and links each under its table', () => {
    assert.equal(slugOf('## watch (HTTP/2)'), 'watch-http-2');
    const md = `${table}\n\nBetween.\n\n${table}\n\nAfter.`;
    const charts = sectionCharts('## get (authentication)', md);
    assert.deepEqual(
      charts.map((c) => c.file),
      ['get-authentication.svg', 'get-authentication-2.svg'],
    );
    assert.match(
      charts[0].link,
      /^!\[get \(authentication\) \(table 1\): latency p50\/p90\/p99 \(ms\)\]\(charts\/get-authentication\.svg\)$/,
    );
    assert.match(charts[0].svg, /^<svg /);
    const linked = withChartLinks('## get (authentication)', md).markdown.split('\n');
    const at = (file: string) => linked.findIndex((l) => l.endsWith(`(charts/${file})`));
    assert.equal(linked[at('get-authentication.svg') - 2], table.split('\n').at(-1));
    assert.equal(linked[at('get-authentication.svg') + 2], 'Between.');
    assert.equal(linked[at('get-authentication-2.svg') + 2], 'After.');
    assert.equal(withChartLinks('## x', 'no tables').markdown, 'no tables');
  });
});
