// The controllers scenario's table: each figure as median (min–max) over the runs, beside its
// target and whether it was met, then notes saying who did the work and how loaded the machine was.

import { formatNumber, formatSummary } from '../lib/format.ts';
import { summarize } from '../lib/stats.ts';
import { renderTable } from '../lib/table.ts';
import type { CaseResult } from './cases.ts';
import type { ControllersResults, ControllersTargetResult } from './index.ts';
import type { InformerMemory } from './memory.ts';

/** Issue 30's targets. */
const DELETE_TARGET_MS = 15_000;
const INFORMER_RATIO_TARGET = 2;

const KiB = 1024;
const seconds = (ms: number[]) => formatSummary(summarize(ms.map((x) => x / 1000)), ' s');
const kib = (bytes: number[]) => formatSummary(summarize(bytes.map((x) => x / KiB)), ' KiB', 2);
const met = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** A timed figure over the runs; a run that timed out makes the row say so rather than a time. */
function timedRow(
  label: string,
  what: string,
  runs: CaseResult[],
  pick: (r: CaseResult) => number | undefined,
  timeoutMs: number,
): string[] {
  const times = runs.map(pick);
  const done = times.filter((t): t is number => t !== undefined);
  const target = `< ${DELETE_TARGET_MS / 1000} s`;
  if (done.length < times.length) {
    const left = runs.map((r) => r.objects - r.deleted);
    return [
      label,
      what,
      `${times.length - done.length} of ${times.length} runs not done in ${timeoutMs / 1000} s (${left.join(', ')} left)`,
      target,
      met(false),
    ];
  }
  return [label, what, seconds(done), target, met(Math.max(...done) < DELETE_TARGET_MS)];
}

/** This process's CPU over a timed case (our control plane's work when it runs here). */
function cpuRow(label: string, what: string, runs: CaseResult[]): string[] {
  return [label, `${what}: CPU of this process meanwhile`, seconds(runs.map((r) => r.cpuMs)), '', ''];
}

function informerRows(label: string, t: ControllersTargetResult): string[][] {
  const rows: string[][] = [];
  for (const encoding of ['json', 'protobuf'] as const) {
    const runs = t.informer.filter((m: InformerMemory) => m.encoding === encoding);
    if (runs.length === 0) continue;
    const heap = runs.map((m) => m.heapBytesPerObject);
    const ratio = summarize(heap.map((h) => h / t.objectBytes));
    rows.push([
      label,
      `informer heap per cached object (${encoding === 'json' ? 'JSON' : 'protobuf'})`,
      `${kib(heap)}; ${formatNumber(ratio.median, 2)}× the object`,
      `< ${INFORMER_RATIO_TARGET} KiB per 1 KiB object`,
      met(ratio.max < INFORMER_RATIO_TARGET),
    ]);
  }
  return rows;
}

function targetRows(t: ControllersTargetResult, timeoutMs: number): string[][] {
  const n = formatNumber(t.owner[0]?.objects ?? t.namespace[0]?.objects ?? 0);
  const owner = `owner of ${n} deleted (Background)`;
  const namespace = `namespace of ${n} deleted`;
  const rows: string[][] = [
    timedRow(t.label, `${owner}: dependents gone`, t.owner, (r) => r.emptiedMs, timeoutMs),
    cpuRow(t.label, owner, t.owner),
    timedRow(t.label, `${namespace}: empty`, t.namespace, (r) => r.emptiedMs, timeoutMs),
    timedRow(t.label, `${namespace}: namespace gone`, t.namespace, (r) => r.goneMs, timeoutMs),
    cpuRow(t.label, namespace, t.namespace),
    [
      t.label,
      'objects created a second (setup)',
      formatSummary(summarize([...t.owner, ...t.namespace].map((r) => (r.objects / r.populateMs) * 1000))),
      '',
      '',
    ],
    [
      t.label,
      'memory measures: one ConfigMap as listed (JSON)',
      `${formatNumber(t.objectBytes)} B (payload ${formatNumber(t.payloadBytes)} B)`,
      '',
      '',
    ],
    ...informerRows(t.label, t),
  ];
  const m = t.manager;
  if (m !== undefined) {
    const note = m.settled ? '' : ' (still moving)';
    rows.push(
      [
        t.label,
        'controller manager heap per cached ConfigMap',
        `${formatNumber(m.heapBytesPerObject / KiB, 2)} KiB${note}`,
        '',
        '',
      ],
      [
        t.label,
        'controller manager RSS per cached ConfigMap',
        `${formatNumber(m.rssBytesPerObject / KiB, 2)} KiB${note}`,
        '',
        '',
      ],
      [
        t.label,
        'controller manager RSS before → after',
        `${formatNumber(m.before.rss / 2 ** 20)} MiB → ${formatNumber(m.after.rss / 2 ** 20)} MiB`,
        '',
        '',
      ],
    );
  }
  return rows;
}

export function renderControllersReport(r: ControllersResults): string {
  const table = renderTable({
    headers: ['target', 'figure', 'value', 'target', 'met'],
    rows: r.targets.flatMap((t) => targetRows(t, r.sizes.timeoutMs)),
    align: ['left', 'left', 'right', 'left', 'left'],
  });
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');
  const caseLoads = r.targets.flatMap((t) => [...t.owner, ...t.namespace].map((c) => c.load));
  const notes = r.targets.map((t) => {
    const manager =
      t.manager === undefined
        ? 'controller manager memory not measured (the server is not ours)'
        : `the measured manager ran ${t.manager.controllers.join(', ')}; its cache held every object ${formatNumber(t.manager.catchUpMs / 1000, 1)} s after the last create`;
    return `${t.label}: garbage collector: ${t.runners.garbageCollector}; namespace deletion: ${t.runners.namespace}; ${manager}.`;
  });
  return [
    table,
    '',
    `Median (min–max) of ${r.sizes.runs} runs; deletion times from the DELETE request to the last deletion a watch saw. ` +
      'The timed cases delete ConfigMaps with a 1 KiB payload (as the API scenarios), created by 64 concurrent requests. ' +
      'The memory measures use ConfigMaps of 1 KiB as a JSON list sends them (metadata and managedFields included). ' +
      'Informer memory: a SharedInformerFactory over one namespace of them in a child process, heap used after sync minus before (garbage collected twice), divided by the objects cached; the target reads as heap per object over the object’s size. ' +
      'Controller manager memory: startControllerManager with every system controller in a child process, heap and RSS after it cached the objects minus before.',
    '',
    ...notes,
    '',
    `Load average (1, 5, 15 min) before: ${load(r.loadBefore)}; after: ${load(r.loadAfter)}; ` +
      `1-minute load at the end of each timed case: ${formatNumber(Math.min(...caseLoads), 2)}–${formatNumber(Math.max(...caseLoads), 2)} (2 cores: above 2, the cases waited for the CPU). ` +
      'A timed case’s CPU row is what this process (API server and controller manager, when the control plane is ours) used from the DELETE to the last deletion; on etcd3, etcd’s own CPU comes on top.',
  ].join('\n');
}
