// Markdown tables padded to column width, so the same text reads well in a terminal and renders as
// a table when pasted into an issue or PR.

export type Align = 'left' | 'right';

export interface Table {
  headers: string[];
  rows: string[][];
  /** Per-column alignment; missing entries are left-aligned. */
  align?: Align[];
}

function escapeCell(text: string): string {
  // A raw pipe would split the cell and a newline would end the row.
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function renderTable(table: Table): string {
  const { headers } = table;
  const cols = headers.length;
  if (cols === 0) throw new RangeError('a table needs at least one column');
  for (const [i, row] of table.rows.entries()) {
    if (row.length !== cols) throw new RangeError(`row ${i} has ${row.length} cells, expected ${cols}`);
  }
  const align = headers.map((_, i) => table.align?.[i] ?? 'left');
  const cells = [headers, ...table.rows].map((row) => row.map(escapeCell));
  // Markdown needs at least three dashes in a delimiter cell, plus one for a right-align colon.
  const widths = headers.map((_, c) =>
    Math.max(align[c] === 'right' ? 4 : 3, ...cells.map((row) => [...row[c]].length)),
  );
  const pad = (text: string, c: number) => {
    const fill = ' '.repeat(widths[c] - [...text].length);
    return align[c] === 'right' ? fill + text : text + fill;
  };
  const line = (row: string[]) => `| ${row.map(pad).join(' | ')} |`;
  const delimiter = `| ${widths.map((w, c) => (align[c] === 'right' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(cells[0]), delimiter, ...cells.slice(1).map(line)].join('\n');
}
