// The hostile scenario: what a server does when its clients misbehave. A thousand watchers that
// never read beside a hundred normal ones under 200 writes/s; five thousand HTTP/2 LIST streams
// reset as soon as they are sent; five thousand idle TLS connections. Against the hardening
// targets: server RSS under 600 MB throughout and back within 10% of where each phase started;
// normal watchers' p99 under 250 ms with no event missed; gets alongside within 20% of quiet.
// Everything is bounded in count and time, and goes to 127.0.0.1 only.

import { formatBytes, formatNumber } from '../lib/format.ts';
import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { renderTable } from '../lib/table.ts';
import type { HeldResult } from './hostile-jobs.ts';
import { openFileLimit, RssMonitor, raiseOpenFileLimit, SAFETY_RSS_MIB } from './hostile-monitor.ts';
import {
  GET_CLIENTS,
  type GetFigures,
  type HostileSizes,
  type IdleFigures,
  idlePhase,
  type QuietFigures,
  quietPhase,
  type ResetFigures,
  type RssFigures,
  resetPhase,
  type SlowFigures,
  slowPhase,
} from './hostile-phases.ts';
import { assertLoopback } from './hostile-sockets.ts';
import { HostileThreads } from './hostile-threads.ts';
import { LOAD_NICE } from './priority.ts';
import { endpointFromKubeconfig, startOwnServer, type Target } from './target.ts';

const FULL: HostileSizes = {
  slowWatchers: 1000,
  normalWatchers: 100,
  writesPerSecond: 200,
  writeMs: 60_000,
  quietGetMs: 10_000,
  quietWatchMs: 10_000,
  warmUpMs: 3000,
  settleMs: 20_000,
  collection: 10_000,
  resets: 5000,
  burst: 100,
  burstPauseMs: 0,
  afterResetsMs: 10_000,
  idleConnections: 5000,
  idleHoldMs: 60_000,
  idleGetMs: 5000,
  getObjects: 1000,
};

const QUICK: HostileSizes = {
  slowWatchers: 20,
  normalWatchers: 5,
  writesPerSecond: 20,
  writeMs: 2000,
  quietGetMs: 500,
  quietWatchMs: 500,
  warmUpMs: 300,
  settleMs: 1000,
  collection: 50,
  resets: 50,
  burst: 10,
  burstPauseMs: 20,
  afterResetsMs: 300,
  idleConnections: 50,
  idleHoldMs: 1000,
  idleGetMs: 300,
  getObjects: 50,
};

/** The hardening targets. */
const RSS_LIMIT_MB = 600;
const RSS_RETURN = 0.1;
const P99_LIMIT_MS = 250;
const GET_KEPT = 0.8;
/** File descriptors beyond the connections: the harness's own, the gets', the writer's. */
const FD_MARGIN = 500;

interface TargetFigures {
  quiet: QuietFigures;
  slow: SlowFigures;
  reset: ResetFigures;
  idle: IdleFigures;
  rssSamples: RssMonitor['samples'];
  serverOpenFiles?: number;
  safetyStop?: string;
}

/**
 * The sizes this process can hold open: its open-file limit raised if it must be, and the counts
 * cut to fit what it could not raise, with a note saying so.
 */
function fitToLimits(s: HostileSizes): { s: HostileSizes; notes: string[] } {
  const needed = Math.max(s.slowWatchers + s.normalWatchers, s.idleConnections) + FD_MARGIN;
  const { soft, note } = raiseOpenFileLimit(needed);
  if (soft >= needed) return { s, notes: [`Load generator: ${note}.`] };
  const room = Math.max(10, soft - FD_MARGIN);
  const fitted = {
    ...s,
    slowWatchers: Math.min(s.slowWatchers, Math.max(10, room - s.normalWatchers)),
    idleConnections: Math.min(s.idleConnections, room),
  };
  return {
    s: fitted,
    notes: [
      `Load generator: ${note}, short of the ${needed} needed: ${fitted.slowWatchers} slow watchers and ${fitted.idleConnections} idle connections instead.`,
    ],
  };
}

function targetOpeners(ctx: ScenarioContext): (() => Promise<Target>)[] {
  if (ctx.kubeconfig !== undefined) {
    const endpoint = endpointFromKubeconfig(ctx.kubeconfig);
    return [
      async () => ({
        endpoint,
        pid: ctx.serverPid,
        label: `server of ${ctx.kubeconfig}`,
        stop: async () => {},
      }),
    ];
  }
  return ctx.backends.map((b) => () => startOwnServer(b));
}

async function runAgainst(t: Target, ctx: ScenarioContext, s: HostileSizes): Promise<TargetFigures> {
  assertLoopback(t.endpoint);
  const monitor = new RssMonitor(t.pid);
  const threads = new HostileThreads();
  monitor.start();
  try {
    const p = { t, ctx, s, threads, monitor };
    ctx.log(`${t.label}: quiet baseline`);
    const quiet = await quietPhase(p);
    ctx.log(`${t.label}: ${s.slowWatchers} slow and ${s.normalWatchers} normal watchers`);
    const slow = await slowPhase(p, quiet.objects);
    ctx.log(`${t.label}: ${s.resets} rapid resets of a LIST of ${s.collection} objects`);
    const reset = await resetPhase(p, quiet.objects);
    ctx.log(`${t.label}: ${s.idleConnections} idle connections`);
    const idle = await idlePhase(p, quiet.objects);
    const limit = t.pid === undefined ? undefined : openFileLimit(t.pid);
    return {
      quiet: { ...quiet, objects: [] },
      slow,
      reset,
      idle,
      rssSamples: monitor.samples,
      ...(limit === undefined ? {} : { serverOpenFiles: limit.soft }),
      ...(monitor.tripped === undefined ? {} : { safetyStop: monitor.tripped }),
    };
  } finally {
    monitor.stop();
    await threads.close();
  }
}

const mib = (x: number) => (Number.isNaN(x) ? 'unknown' : `${formatNumber(x)} MiB`);
const ms = (x: number) => (Number.isNaN(x) ? 'n/a' : `${formatNumber(x, x < 10 ? 1 : 0)} ms`);
const verdict = (ok: boolean | undefined) => (ok === undefined ? 'unknown' : ok ? 'met' : 'MISSED');
const known = (x: number, test: (x: number) => boolean) => (Number.isNaN(x) ? undefined : test(x));

function codes(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? '' : ` (${entries.map(([k, n]) => `${k} ×${n}`).join(', ')})`;
}

/** "n of m (after a–b s)": how many held connections the server closed, and how long after opening. */
function closed(h: HeldResult): string {
  if (h.closedByServer === 0) return `0 of ${formatNumber(h.opened)}`;
  const s = h.closedAfterMs.map((x) => x / 1000);
  return `${formatNumber(h.closedByServer)} of ${formatNumber(h.opened)} (after ${formatNumber(Math.min(...s), 1)}–${formatNumber(Math.max(...s), 1)} s)`;
}

/** "n (code c ×k); sessions took a–b answered resets each". */
function goawaySummary(goaways: ResetFigures['resets']['goaways']): string {
  if (goaways.length === 0) return 'none';
  const byCode: Record<string, number> = {};
  for (const g of goaways) byCode[`code ${g.code}`] = (byCode[`code ${g.code}`] ?? 0) + 1;
  const spans = goaways.map((g, i) => g.afterResets - (i === 0 ? 0 : goaways[i - 1].afterResets));
  return `${goaways.length}${codes(byCode)}; a session took ${Math.min(...spans)}–${Math.max(...spans)} answered resets before it`;
}

function getRow(g: GetFigures, quiet: GetFigures | undefined): string {
  const share =
    quiet === undefined ? '' : `, ${formatNumber((100 * g.perSecond) / quiet.perSecond)}% of quiet`;
  return `${formatNumber(g.perSecond)} ops/s${share}; p50 ${ms(g.p50)}, p99 ${ms(g.p99)}; ${g.failed} failed`;
}

function rssRows(phase: string, r: RssFigures): string[][] {
  const back = (r.endMiB - r.startMiB) / r.startMiB;
  return [
    [
      phase,
      'RSS start → max',
      `${mib(r.startMiB)} → ${mib(r.maxMiB)}`,
      `< ${RSS_LIMIT_MB} MB`,
      verdict(known(r.maxMiB, (x) => x * 1.048576 < RSS_LIMIT_MB)),
    ],
    [
      phase,
      'RSS after settle',
      `${mib(r.endMiB)} (${back >= 0 ? '+' : ''}${formatNumber(100 * back, 1)}%)`,
      `within ${100 * RSS_RETURN}% of start`,
      verdict(known(back, (x) => Math.abs(x) <= RSS_RETURN)),
    ],
  ];
}

function rows(f: TargetFigures, s: HostileSizes): string[][] {
  const { quiet, slow, reset, idle } = f;
  const w = slow.watch;
  const seconds = (x: number) => `${formatNumber(x / 1000, x < 10_000 ? 1 : 0)} s`;
  const goaways = reset.resets.goaways;
  return [
    ['quiet', 'RSS at start', mib(quiet.startMiB), '', ''],
    ['quiet', `get, ${GET_CLIENTS} clients, ${seconds(s.quietGetMs)}`, getRow(quiet.get, undefined), '', ''],
    [
      'quiet',
      `${s.normalWatchers} watchers, ${s.writesPerSecond} writes/s, ${seconds(s.quietWatchMs)}`,
      `p50 ${ms(quiet.watch.p50)}, p99 ${ms(quiet.watch.p99)}; ${quiet.watch.missed} missed`,
      '',
      '',
    ],
    [
      'slow watchers',
      'slow watchers open / refused',
      `${formatNumber(slow.slow.opened)} in ${seconds(slow.slow.openMs)}${codes(slow.slow.refused)}`,
      '',
      '',
    ],
    ['slow watchers', 'slow watchers the server closed', closed(slow.slow), '', ''],
    [
      'slow watchers',
      'held in the kernel at the end',
      `${formatBytes(slow.slow.unreadBytes)} unread by them, ${formatBytes(slow.slow.serverQueuedBytes)} queued by the server`,
      '',
      '',
    ],
    ...rssRows('slow watchers', slow.rss),
    [
      'slow watchers',
      `${s.normalWatchers} normal watchers, delivery p50 / p99`,
      `${ms(w.p50)} / ${ms(w.p99)}`,
      `p99 < ${P99_LIMIT_MS} ms`,
      verdict(known(w.p99, (x) => x < P99_LIMIT_MS)),
    ],
    [
      'slow watchers',
      'normal watchers, events missed',
      `${formatNumber(w.missed)} of ${formatNumber(w.delivered + w.missed)}`,
      '0',
      verdict(w.missed === 0),
    ],
    [
      'slow watchers',
      'normal watchers by sixth of the writes',
      `delivered ${w.byPart.map((x) => `${formatNumber(x.deliveredPct)}%`).join(', ')}; p99 ${w.byPart.map((x) => ms(x.p99)).join(', ')}`,
      '',
      '',
    ],
    [
      'slow watchers',
      `writes done (of ${s.writesPerSecond}/s for ${seconds(s.writeMs)})`,
      `${formatNumber(w.writesPerSecond)}/s; ${w.writeFailures} failed`,
      '',
      '',
    ],
    [
      'slow watchers',
      `get alongside, ${GET_CLIENTS} clients`,
      getRow(slow.get, quiet.get),
      `≥ ${100 * GET_KEPT}% of quiet`,
      verdict(slow.get.perSecond >= GET_KEPT * quiet.get.perSecond),
    ],
    [
      'rapid reset',
      'collection listed',
      `${formatNumber(reset.objects)} objects, ${formatBytes(reset.listBytes)} (HTTP ${reset.listStatus})`,
      '',
      '',
    ],
    [
      'rapid reset',
      'LIST streams sent and reset',
      `${formatNumber(reset.resets.resets)} answered (+${formatNumber(reset.resets.unanswered)} unanswered) over ${reset.resets.sessions} sessions in ${seconds(reset.resets.elapsedMs)}${codes(reset.resets.errors)}`,
      '',
      '',
    ],
    ['rapid reset', 'GOAWAY received', goawaySummary(goaways), '', ''],
    ...rssRows('rapid reset', reset.rss),
    [
      'rapid reset',
      `get meanwhile (and ${seconds(s.afterResetsMs)} after)`,
      getRow(reset.get, quiet.get),
      `≥ ${100 * GET_KEPT}% of quiet`,
      verdict(reset.get.perSecond >= GET_KEPT * quiet.get.perSecond),
    ],
    [
      'idle connections',
      'opened after one request / refused',
      `${formatNumber(idle.withRequest.opened)}${codes(idle.withRequest.refused)}`,
      '',
      '',
    ],
    [
      'idle connections',
      'opened without a request / refused',
      `${formatNumber(idle.withoutRequest.opened)}${codes(idle.withoutRequest.refused)}`,
      '',
      '',
    ],
    ['idle connections', 'closed by the server, after a request', closed(idle.withRequest), '', ''],
    ['idle connections', 'closed by the server, no request', closed(idle.withoutRequest), '', ''],
    ...rssRows('idle connections', idle.rss),
    [
      'idle connections',
      `get, last ${seconds(s.idleGetMs)} of the hold`,
      getRow(idle.get, quiet.get),
      `≥ ${100 * GET_KEPT}% of quiet`,
      verdict(idle.get.perSecond >= GET_KEPT * quiet.get.perSecond),
    ],
  ];
}

async function hostileScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const { s, notes } = fitToLimits(ctx.quick ? QUICK : FULL);
  const results: { label: string; value: TargetFigures }[] = [];
  for (const open of targetOpeners(ctx)) {
    const t = await open();
    try {
      ctx.log(`${t.label}: running`);
      results.push({ label: t.label, value: await runAgainst(t, ctx, s) });
    } finally {
      await t.stop();
    }
  }
  const table = renderTable({
    headers: ['server', 'phase', 'figure', 'value', 'target', 'met'],
    rows: results.flatMap(({ label, value }) => rows(value, s).map((r) => [label, ...r])),
    align: ['left', 'left', 'left', 'left', 'left', 'left'],
  });
  for (const { label, value } of results) {
    if (value.serverOpenFiles !== undefined)
      notes.push(`${label}: open-file limit ${value.serverOpenFiles}.`);
    if (value.safetyStop !== undefined)
      notes.push(`${label}: the safety stop ended a phase early (${value.safetyStop}).`);
    if (value.rssSamples.length === 0) notes.push(`${label}: RSS unknown (pass --server-pid).`);
  }
  return {
    results,
    markdown: `${table}

Phases run in this order on one server; each phase's RSS is sampled once a second from its start to the end of a ${formatNumber(s.settleMs / 1000)} s settle after it, and "after settle" is the lowest of that settle's samples, compared with the phase's own start (the objects each phase creates stay). Slow watchers are HTTP/1.1 JSON watches, a connection each, paused once their response headers arrive; whether the server closed one is read from the kernel's socket table once a second (a paused socket hears nothing). Normal watchers check every sequence number of the writer's 1 KiB ConfigMaps (bench/api/jobs.ts); an event not received when they close, 2 s after the last write, counts as missed. Rapid resets send each LIST's HEADERS then RST_STREAM(CANCEL) over HTTP/2, in bursts of ${s.burst}, each followed by a PING whose answer is awaited (a burst counts as answered once it comes: the server has read it), opening a new session after a GOAWAY or a session lost. Idle connections: half make one GET /version then idle, half only complete the TLS handshake; held ${formatNumber(s.idleHoldMs / 1000)} s after all are open. A phase ends early if the server passes ${SAFETY_RSS_MIB} MiB or the machine runs short of memory. The load runs in worker threads at nice ${LOAD_NICE}, on the same machine as the server (shared with other work: compare runs from one quiet machine only).${notes.length === 0 ? '' : `\n\n${notes.join(' ')}`}
`,
  };
}

export const hostile: Scenario = {
  name: 'hostile',
  description: 'slow watchers, rapid HTTP/2 resets and idle connections, against memory and latency targets',
  run: hostileScenario,
};
