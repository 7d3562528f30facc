// bench/REPORT.md: the latest result of every scenario, one section each, with the machine, the
// options and the date it ran, so the committed report says exactly what was measured.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatMachine, type MachineInfo } from './machine.ts';

interface StoredResult {
  scenario: string;
  startedAt: string;
  options?: { backends?: string[]; quick?: boolean; protocol?: string; kubeconfig?: string };
  machine: MachineInfo;
  markdown?: string;
}

/** The newest full-size result per scenario (quick runs are smoke tests, not figures). */
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
    latest.set(r.scenario, r);
  }
  return [...latest.values()].sort((a, b) => a.scenario.localeCompare(b.scenario));
}

export function renderReport(results: StoredResult[]): string {
  const sections = results.map((r) => {
    const o = r.options ?? {};
    const target = o.kubeconfig
      ? 'a server named by --kubeconfig'
      : `ours, backends: ${(o.backends ?? []).join(', ')}`;
    return [
      `## ${r.scenario}`,
      '',
      `Ran ${r.startedAt} on ${formatMachine(r.machine)}; ${target}; ${o.protocol === 'http2' ? 'HTTP/2' : 'HTTP/1.1'}.`,
      '',
      (r.markdown ?? '').trim(),
      '',
    ].join('\n');
  });
  return [
    '# Benchmark report',
    '',
    'The latest full run of each scenario (`npm run bench -- <scenario…>`, then `npm run bench -- report`).',
    'Figures are medians with (min–max) over repeated runs, measured on a shared machine; compare runs',
    'from the same machine only.',
    '',
    ...sections,
  ].join('\n');
}

export function writeReport(resultsDir: string, reportPath: string): string {
  writeFileSync(reportPath, renderReport(latestResults(resultsDir)));
  return reportPath;
}
