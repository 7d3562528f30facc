// bench/REPORT.md: the latest result of every scenario, one section each, with the machine, the
// options and the date it ran, so the committed report says exactly what was measured. Each
// latency table gets a bar chart (bench/charts/<section>.svg, latency-charts.ts) linked below it.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type SectionChart, sectionCharts, withChartLinks } from './latency-charts.ts';
import { formatMachine, type MachineInfo } from './machine.ts';

interface StoredResult {
  scenario: string;
  startedAt: string;
  options?: {
    backends?: string[];
    quick?: boolean;
    protocol?: string;
    encoding?: string;
    kubeconfig?: string;
    auth?: string[];
  };
  machine: MachineInfo;
  markdown?: string;
}

/**
 * The newest full-size result per scenario and variant (protocol, watch encoding), so that an
 * HTTP/2 or protobuf run sits beside the default one rather than replacing it; quick runs are smoke
 * tests, not figures.
 */
export function latestResults(dir: string): StoredResult[] {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  const latest = new Map<string, StoredResult>();
  for (const f of files) {
    const r = JSON.parse(readFileSync(join(dir, f), 'utf8')) as StoredResult;
    if (r.options?.quick || r.markdown === undefined) continue;
    latest.set(`${r.scenario} ${variantOf(r)}`, r);
  }
  return [...latest.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, r]) => r);
}

/**
 * How a run differs from the default (HTTP/1.1, JSON watch streams, the admin's certificate);
 * empty for the default. A comparison of authentications is one variant whatever kinds it ran, so
 * the newest replaces the last.
 */
function variantOf(r: StoredResult): string {
  const o = r.options ?? {};
  return [
    o.protocol === 'http2' ? 'HTTP/2' : '',
    o.encoding === 'protobuf' ? 'protobuf' : '',
    o.auth !== undefined && o.auth.length > 0 ? 'authentication' : '',
  ]
    .filter((x) => x !== '')
    .join(', ');
}

/**
 * The report: a section per latest result, and every section of `previous` (the report as it
 * stands) whose scenario has no result here, so that a run of some scenarios on one machine keeps
 * the others' figures, each still dated by its own "Ran" line.
 */
export function renderReport(results: StoredResult[], previous = ''): string {
  return renderReportWithCharts(results, previous).text;
}

/**
 * renderReport's text, with a chart linked under each latency table of the sections it renders
 * from results (kept sections keep whatever links they have), and the charts of every section.
 */
export function renderReportWithCharts(
  results: StoredResult[],
  previous = '',
): { text: string; charts: SectionChart[] } {
  const sections = new Map<string, string>();
  for (const [heading, text] of sectionsOf(previous)) sections.set(heading, text);
  for (const r of results) {
    const o = r.options ?? {};
    const target = o.kubeconfig
      ? 'a server named by --kubeconfig'
      : `ours, backends: ${(o.backends ?? []).join(', ')}`;
    const heading = variantOf(r) === '' ? `## ${r.scenario}` : `## ${r.scenario} (${variantOf(r)})`;
    const { markdown } = withChartLinks(heading, (r.markdown ?? '').trim());
    sections.set(
      heading,
      [
        heading,
        '',
        `Ran ${r.startedAt} on ${formatMachine(r.machine)}; ${target}; ${o.protocol === 'http2' ? 'HTTP/2' : 'HTTP/1.1'}.`,
        '',
        markdown,
        '',
      ].join('\n'),
    );
  }
  const charts = [...sections.entries()].flatMap(([heading, text]) => sectionCharts(heading, text));
  const text = [
    '# Benchmark report',
    '',
    'The latest full run of each scenario (`npm run bench -- <scenario…>`, then `npm run bench -- report`).',
    'Figures are medians with (min–max) over repeated runs, measured on a shared machine; compare runs',
    'from the same machine only.',
    '',
    ...[...sections.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, text]) => text),
  ].join('\n');
  return { text, charts };
}

/** A report's sections by heading line, each with its text up to the next heading. */
function sectionsOf(report: string): [string, string][] {
  const out: [string, string][] = [];
  const parts = report.split(/^(?=## )/m).slice(1);
  for (const part of parts) {
    const heading = part.slice(0, part.indexOf('\n') === -1 ? part.length : part.indexOf('\n'));
    out.push([heading, `${part.trimEnd()}\n`]);
  }
  return out;
}

export function writeReport(resultsDir: string, reportPath: string): string {
  let previous = '';
  try {
    previous = readFileSync(reportPath, 'utf8');
  } catch {
    // No report yet: every section comes from the results.
  }
  const { text, charts } = renderReportWithCharts(latestResults(resultsDir), previous);
  writeCharts(join(dirname(reportPath), 'charts'), charts);
  writeFileSync(reportPath, text);
  return reportPath;
}

export function writeCharts(dir: string, charts: SectionChart[]): void {
  if (charts.length === 0) return;
  mkdirSync(dir, { recursive: true });
  for (const c of charts) writeFileSync(join(dir, c.file), c.svg);
}

/**
 * The charts of the report as it stands, written to its charts folder without touching the report
 * (`npm run bench -- charts`): for sections written or edited by hand. Returns each section's
 * image lines, for pasting under its tables.
 */
export function writeStandingCharts(reportPath: string): { heading: string; links: string[] }[] {
  const report = readFileSync(reportPath, 'utf8');
  const out: { heading: string; links: string[] }[] = [];
  const all: SectionChart[] = [];
  for (const [heading, text] of sectionsOf(report)) {
    const charts = sectionCharts(heading, text);
    if (charts.length === 0) continue;
    all.push(...charts);
    out.push({ heading, links: charts.map((c) => c.link) });
  }
  writeCharts(join(dirname(reportPath), 'charts'), all);
  return out;
}
