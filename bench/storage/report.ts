// The storage scenario's Markdown: one row per figure, one column per backend measured.

import { formatNumber, formatSummary } from '../lib/format.ts';
import type { BackendName } from '../lib/scenario.ts';
import type { Summary } from '../lib/stats.ts';
import { renderTable } from '../lib/table.ts';
import type { StorageBenchConfig } from './config.ts';
import type { BackendResult } from './measure.ts';

const LABELS: Record<BackendName, string> = { sqlite: 'SQLite', etcd3: 'etcd' };
const NONE = '—';

function percent(s: Summary): string {
  const p = (v: number) => formatNumber(v * 100, 0);
  return `${p(s.median)}% (${p(s.min)}–${p(s.max)}%)`;
}

function ratioCell(r: BackendResult): string {
  const { ratio, target, met } = r.ceilingRatio;
  return `${percent(ratio)}, target ≥${formatNumber(target * 100, 0)}%: ${met ? 'met' : 'MISSED'}`;
}

/** The SQLite driver the run measured (the ceiling uses the same one). */
function sqliteDriverOf(results: BackendResult[]): string {
  return results.find((r) => r.backend === 'sqlite')?.details.driver ?? 'better-sqlite3';
}

export function renderStorageReport(
  results: BackendResult[],
  cfg: StorageBenchConfig,
  quick: boolean,
): string {
  const only = (backend: BackendName, cell: (r: BackendResult) => string) => (r: BackendResult) =>
    r.backend === backend ? cell(r) : NONE;
  const listed = formatNumber(cfg.listObjects);
  const rowDefs: [string, (r: BackendResult) => string][] = [
    ...cfg.writerCounts.map((w): [string, (r: BackendResult) => string] => [
      `Durable writes/s, ${w} writer${w === 1 ? '' : 's'}`,
      (r) => formatSummary(r.writes.find((x) => x.concurrency === w)!.perSec),
    ]),
    ...cfg.writerCounts.map((w): [string, (r: BackendResult) => string] => [
      `CPU µs per durable write, ${w} writer${w === 1 ? '' : 's'}`,
      (r) => formatSummary(r.writes.find((x) => x.concurrency === w)!.cpuMicrosPerOp),
    ]),
    [`Point reads/s, ${cfg.readConcurrency} concurrent`, (r) => formatSummary(r.reads.perSec)],
    [`CPU µs per point read`, (r) => formatSummary(r.reads.cpuMicrosPerOp)],
    [`Full list of ${listed} × 1 KiB: seconds`, (r) => formatSummary(r.list.seconds)],
    [`Full list of ${listed}: objects/s`, (r) => formatSummary(r.list.objectsPerSec)],
    [`Full list of ${listed}: MB/s`, (r) => formatSummary(r.list.mbPerSec)],
    [
      `Raw ceiling: batched ${sqliteDriverOf(results)} inserts, rows/s`,
      only('sqlite', (r) => formatSummary(r.ceiling.perSec)),
    ],
    [
      `Raw ceiling: etcd3 puts/s, ${cfg.rawEtcdInFlight} in flight`,
      only('etcd3', (r) => formatSummary(r.ceiling.perSec)),
    ],
    [
      `Durable writes at ${cfg.ceilingWriters} writers as % of raw batched insert ceiling`,
      only('sqlite', ratioCell),
    ],
    [
      `Writes at ${cfg.ceilingWriters} as % of raw put rate at ${cfg.rawEtcdInFlight} in flight`,
      only('etcd3', ratioCell),
    ],
  ];
  const rows = rowDefs
    .map(([label, cell]) => [label, ...results.map(cell)])
    .filter((row) => row.slice(1).some((c) => c !== NONE));
  const table = renderTable({
    headers: ['Metric', ...results.map((r) => LABELS[r.backend])],
    rows,
    align: ['left', ...results.map(() => 'right' as const)],
  });

  const sizes = [...new Set(results.map((r) => r.objectBytes))].join('/');
  const notes = [
    `Each cell: median of ${cfg.runs} runs (min–max). Writes are creates of new keys, ${sizes}-byte ConfigMaps,`,
    `${cfg.writeDurationMs} ms per run; reads are gets of random existing keys for ${cfg.readDurationMs} ms;`,
    `raw ceilings run ${cfg.rawDurationMs} ms, each right after the same run's writes (SQLite: ${cfg.rawSqliteBatchRows}`,
    `rows/txn, WAL, synchronous=FULL, fresh file). MB = 10^6 bytes of object JSON as written.`,
  ];
  const head = quick ? ['**Quick mode: tiny sizes, the numbers mean nothing.**', ''] : [];
  return [...head, table, '', ...notes].join('\n');
}
