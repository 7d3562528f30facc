// The rollout scenario's table: each figure as median (min–max) over the runs, beside its target
// and whether it was met, then the machine's load.

import { formatNumber, formatSummary } from '../lib/format.ts';
import { summarize } from '../lib/stats.ts';
import { renderTable } from '../lib/table.ts';
import type { RolloutResults } from './index.ts';
import type { PhaseResult } from './rollout.ts';

/** Issue 31's targets. */
const ROLLOUT_TARGET_MS = 60_000;
const PODS_PER_SECOND_TARGET = 500;

const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
const seconds = (ms: number[]) => formatSummary(summarize(ms.map((x) => x / 1000)), ' s');

function optionalRow(label: string, what: string, values: (number | undefined)[], unit: string): string[][] {
  const known = values.filter((v): v is number => v !== undefined);
  if (known.length === 0) return [];
  return [[label, what, formatSummary(summarize(known), unit), '', '']];
}

function phaseRows(label: string, name: string, phases: PhaseResult[], target?: number): string[][] {
  const times = phases.map((p) => p.ms);
  return [
    [
      label,
      `${name}: until rolled out`,
      seconds(times),
      target === undefined ? '' : `< ${target / 1000} s`,
      target === undefined ? '' : met(Math.max(...times) < target),
    ],
    ...optionalRow(
      label,
      `${name}: API requests`,
      phases.map((p) => p.requests),
      '',
    ),
    ...optionalRow(
      label,
      `${name}: controller manager CPU`,
      phases.map((p) => (p.managerCpuMs === undefined ? undefined : p.managerCpuMs / 1000)),
      ' s',
    ),
  ];
}

export function renderRolloutReport(r: RolloutResults): string {
  const rows: string[][] = [];
  for (const t of r.targets) {
    const replicas = r.sizes.replicas;
    rows.push(
      ...phaseRows(
        t.label,
        `create of ${replicas} replicas`,
        t.runs.map((x) => x.create),
      ),
    );
    const rates = t.runs.map((x) => x.podsPerSecond);
    rows.push([
      t.label,
      'Pods created per second',
      formatSummary(summarize(rates), ' /s'),
      `≥ ${PODS_PER_SECOND_TARGET} /s`,
      met(Math.min(...rates) >= PODS_PER_SECOND_TARGET),
    ]);
    rows.push(
      ...phaseRows(
        t.label,
        `image change of ${replicas} replicas`,
        t.runs.map((x) => x.imageChange),
        ROLLOUT_TARGET_MS,
      ),
    );
  }
  const table = renderTable({ headers: ['target', 'figure', 'value', 'target', 'met'], rows });
  const load = (l: number[]) => l.map((x) => formatNumber(x, 2)).join(', ');
  return [
    table,
    '',
    `${r.sizes.runs} run(s) of ${r.sizes.replicas} replicas on ${r.sizes.nodes} simulated nodes; API requests count every client (manager, nodes, scheduler, this bench).`,
    `Load average before: ${load(r.loadBefore)}; after: ${load(r.loadAfter)}.`,
  ].join('\n');
}
