// The report's latency charts, drawn from its own Markdown tables: any table with p50, p90 or p99
// columns (`p99`, `delivery p99`; not `p99 after warm-up`) becomes a bar chart of each row's
// medians, labelled by the row's text columns. Reading the tables rather than each scenario's
// results means every section gets its chart, hand-written ones included, and a chart always
// shows the figures printed beside it.

import { renderBarChart } from './svg-chart.ts';

const PERCENTILE_HEADER = /^(?:.*\s)?(p(?:50|90|99))$/i;
const DURATION = /^([0-9][0-9,]*(?:\.[0-9]+)?)\s*(µs|us|ms|s)(?:\s|$)/;
const TO_MS: Record<string, number> = { µs: 1e-3, us: 1e-3, ms: 1, s: 1000 };

/** A cell's leading duration in milliseconds (`29.4 ms (27.9–31.2)`, `1.2 s`); undefined if none. */
export function parseDurationMs(cell: string): number | undefined {
  const m = DURATION.exec(cell.trim());
  if (m === null) return undefined;
  return Number(m[1].replace(/,/g, '')) * TO_MS[m[2]];
}

/** A table row's cells, unescaping `\|` and `\\` as renderTable escapes them. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '\\' && i + 1 < inner.length) {
      cur += inner[++i];
    } else if (c === '|') {
      out.push(cur.trim());
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur.trim());
  return out;
}

const isDelimiter = (row: string[]) => row.length > 0 && row.every((c) => /^:?-{3,}:?$/.test(c));

export interface LatencyTable {
  /** The percentile columns found, in the table's order. */
  series: string[];
  groups: { label: string; values: (number | undefined)[] }[];
  /** Index of the table's last line in the text's lines. */
  lastLine: number;
}

/** The tables of `markdown` with percentile columns, each with its rows' median latencies in ms. */
export function latencyTables(markdown: string): LatencyTable[] {
  const lines = markdown.split('\n');
  const out: LatencyTable[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].trimStart().startsWith('|') || !lines[i + 1].trimStart().startsWith('|')) continue;
    const headers = cells(lines[i]);
    const delimiter = cells(lines[i + 1]);
    if (!isDelimiter(delimiter) || delimiter.length !== headers.length) continue;
    let end = i + 2;
    while (end < lines.length && lines[end].trimStart().startsWith('|')) end++;
    const rows = lines.slice(i + 2, end).map(cells);
    const columns: { index: number; name: string }[] = [];
    for (const [index, h] of headers.entries()) {
      const name = PERCENTILE_HEADER.exec(h)?.[1].toLowerCase();
      if (name !== undefined && !columns.some((c) => c.name === name)) columns.push({ index, name });
    }
    // Text columns are the left-aligned ones (renderTable right-aligns figures).
    const labels = delimiter.flatMap((d, k) => (d.endsWith(':') ? [] : [k]));
    const groups = rows
      .map((row) => ({
        label: labels
          .map((k) => row[k] ?? '')
          .filter((c) => c !== '')
          .join(' · '),
        values: columns.map((c) => parseDurationMs(row[c.index] ?? '')),
      }))
      .filter((g) => g.values.some((v) => v !== undefined));
    if (columns.length > 0 && groups.length > 0) {
      out.push({ series: columns.map((c) => c.name), groups, lastLine: end - 1 });
    }
    i = end - 1;
  }
  return out;
}

/** A file-name-safe form of a section heading: `watch (HTTP/2)` → `watch-http-2`. */
export function slugOf(heading: string): string {
  return heading
    .replace(/^#+\s*/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export interface SectionChart {
  /** The SVG's file name in the charts folder. */
  file: string;
  svg: string;
  /** The Markdown image line that shows it, relative to the report. */
  link: string;
}

/** The charts of one report section's tables: `<slug>.svg`, then `<slug>-2.svg`, … */
export function sectionCharts(heading: string, markdown: string, dir = 'charts'): SectionChart[] {
  const name = heading.replace(/^#+\s*/, '');
  const slug = slugOf(heading);
  const tables = latencyTables(markdown);
  return tables.map((t, k) => {
    const file = `${slug}${k === 0 ? '' : `-${k + 1}`}.svg`;
    const title = `${name}${tables.length > 1 ? ` (table ${k + 1})` : ''}: latency ${t.series.join('/')} (ms)`;
    return {
      file,
      svg: renderBarChart({ title, series: t.series, groups: t.groups, unit: 'ms' }),
      link: `![${title}](${dir}/${file})`,
    };
  });
}

/**
 * `markdown` with each chart's image line after its table (a blank line either side), and the
 * charts: what the report writer puts in a section it renders from a result.
 */
export function withChartLinks(
  heading: string,
  markdown: string,
): { markdown: string; charts: SectionChart[] } {
  const charts = sectionCharts(heading, markdown);
  if (charts.length === 0) return { markdown, charts };
  const lines = markdown.split('\n');
  const tables = latencyTables(markdown);
  // From the last table up, so earlier line numbers stay right.
  for (let k = tables.length - 1; k >= 0; k--) {
    lines.splice(tables[k].lastLine + 1, 0, '', charts[k].link);
  }
  return { markdown: lines.join('\n'), charts };
}
