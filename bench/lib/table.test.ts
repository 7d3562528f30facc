import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderTable } from './table.ts';

describe('renderTable', () => {
  it('pads columns and right-aligns numbers', () => {
    const out = renderTable({
      headers: ['Metric', 'SQLite'],
      rows: [
        ['writes/s', '12,345'],
        ['reads/s', '9'],
      ],
      align: ['left', 'right'],
    });
    assert.equal(
      out,
      [
        '| Metric   | SQLite |',
        '| -------- | -----: |',
        '| writes/s | 12,345 |',
        '| reads/s  |      9 |',
      ].join('\n'),
    );
  });

  it('keeps delimiter cells valid for narrow columns', () => {
    assert.equal(
      renderTable({ headers: ['a', 'b'], rows: [['1', '2']], align: ['left', 'right'] }),
      '| a   |    b |\n| --- | ---: |\n| 1   |    2 |',
    );
  });

  it('escapes pipes and flattens newlines so a cell cannot break the row', () => {
    const out = renderTable({ headers: ['x'], rows: [['a|b\nc']] });
    assert.equal(out.split('\n')[2], '| a\\|b c |');
  });

  it('measures width in characters, not UTF-16 units', () => {
    const out = renderTable({ headers: ['v'], rows: [['1 (0–2)'], ['≥50%']] });
    const lines = out.split('\n');
    assert.equal(new Set(lines.map((l) => [...l].length)).size, 1);
  });

  it('rejects ragged rows', () => {
    assert.throws(() => renderTable({ headers: ['a', 'b'], rows: [['1']] }), RangeError);
  });
});
