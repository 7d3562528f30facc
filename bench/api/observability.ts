// `observability`: what request metrics and audit cost the get and create loads, in one run against
// four servers started at once (observability-modes.ts): request metrics short-circuited, the
// server as shipped (metrics on, audit off) twice, and audit at Metadata level to a JSON file; the
// two identical servers measure the noise floor of the comparison. Targets:
// metrics under 3%, Metadata-level file audit under 10%. The loads run in rounds, each server once
// per load per round in a rotating order, after one uncounted run each; a figure is the median of
// the per-round ratios, so a slow spell of the shared machine lands on every server alike. Beside
// the throughput, the servers' CPU per request, and the metrics' own cost timed in this process
// (metrics-cost.ts) against a get's CPU: a few percent is within the throughput's noise here.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber, formatSummary } from '../lib/format.ts';
import { freePort, readyz } from '../lib/program.ts';
import type { ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { type Summary, summarize } from '../lib/stats.ts';
import { renderTable } from '../lib/table.ts';
import type { Job, JobResult } from './jobs.ts';
import { LoadThreads, merge, percentile, shares } from './load.ts';
import { requestMetricsCost } from './metrics-cost.ts';
import { freshNamespace } from './namespace.ts';
import { AUDIT_LOG, OBSERVABILITY_MODES, type ObservabilityMode } from './observability-modes.ts';
import { LOAD_NICE } from './priority.ts';
import { cpuSeconds, type Target } from './target.ts';

const WORKERS = 2;
const CONCURRENCY = 32;
const MAIN = fileURLToPath(new URL('./observability-main.ts', import.meta.url));

interface Sizes {
  rounds: number;
  gets: number;
  creates: number;
  objects: number;
  microIterations: number;
}
const FULL: Sizes = { rounds: 9, gets: 10_000, creates: 2_000, objects: 1000, microIterations: 400_000 };
const QUICK: Sizes = { rounds: 2, gets: 60, creates: 30, objects: 30, microIterations: 20_000 };

type Load = 'get' | 'create';
const LOADS: Load[] = ['get', 'create'];

const LABELS: Record<ObservabilityMode, string> = {
  'metrics-off': 'request metrics short-circuited, audit off',
  metrics: 'as shipped: metrics on, audit off',
  'metrics-again': 'as shipped, a second process (noise floor)',
  'audit-metadata': 'metrics on, audit Metadata to a file',
};

/** What a mode is compared against, and the overhead target if it has one, for the table. */
const BASELINE: Partial<Record<ObservabilityMode, { of: ObservabilityMode; targetPercent?: number }>> = {
  metrics: { of: 'metrics-off', targetPercent: 3 },
  'metrics-again': { of: 'metrics' },
  'audit-metadata': { of: 'metrics', targetPercent: 10 },
};

export interface ObservabilityFigures {
  mode: ObservabilityMode;
  load: Load;
  perSecond: Summary;
  /** Per round, throughput lost against the baseline's run of the same load, in percent. */
  overhead?: Summary;
  cpuMicros: Summary;
  /** Per round, server CPU per request over the baseline's, in percent above it. */
  cpuOverhead?: Summary;
  p50: Summary;
  p90: Summary;
  p99: Summary;
  failed: number;
}

export interface ObservabilityResult {
  figures: ObservabilityFigures[];
  /** Bytes the audit log held at the end, and per request the audited server answered in the counted runs. */
  auditLogBytes: number;
  auditBytesPerRequest: number;
  metricsCost: ReturnType<typeof requestMetricsCost>;
}

/** A server of one mode from the sources, in its own process, on a fresh data directory. */
async function startMode(mode: ObservabilityMode): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), `bench-obs-${mode}-`));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN, String(port), dir, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await new Promise<void>((res, rej) => {
      child.stdout?.once('data', () => res());
      child.once('exit', (code) => rej(new Error(`${mode} server exited with ${code}`)));
    });
    // `ready` follows the server's own readiness; /readyz confirms the listener answers.
    if ((await readyz(port)) !== 200) throw new Error(`${mode} server not ready`);
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    endpoint: {
      url: `https://127.0.0.1:${port}`,
      ca: readFileSync(join(dir, 'ca.crt'), 'utf8'),
      cert: readFileSync(join(dir, 'admin.crt'), 'utf8'),
      key: readFileSync(join(dir, 'admin.key'), 'utf8'),
    },
    pid: child.pid,
    label: LABELS[mode],
    dataDir: dir,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Run = JobResult & { cpuMicros: number };

/**
 * Bytes of the audit log and the files it rotated to (at upstream's default of 100 MB: a full run
 * writes more), 0 when there is none (audit not wired, and the run says so).
 */
function auditLogBytes(dir: string): number {
  const stem = AUDIT_LOG.replace(/\.log$/, '');
  return readdirSync(dir)
    .filter((f) => f.startsWith(stem) && f.includes('.log'))
    .reduce((a, f) => a + statSync(join(dir, f)).size, 0);
}

interface Prepared {
  t: Target;
  ns: string;
  objects: [string, string][];
}

async function prepare(t: Target, ctx: ScenarioContext, s: Sizes, threads: LoadThreads): Promise<Prepared> {
  const ns = await freshNamespace(t.endpoint, ctx.protocol, 'obs');
  await Promise.all(
    shares(s.objects, WORKERS).map((count, w) =>
      threads.run(t.endpoint, ctx.protocol, {
        kind: 'create',
        namespaces: [ns],
        prefix: `o-${w}`,
        count,
        size: 1024,
        concurrency: CONCURRENCY,
      }),
    ),
  );
  const objects = shares(s.objects, WORKERS).flatMap((count, w) =>
    Array.from({ length: count }, (_, i): [string, string] => [ns, `o-${w}-${i}`]),
  );
  return { t, ns, objects };
}

async function measure(ctx: ScenarioContext, s: Sizes): Promise<ObservabilityResult> {
  const targets: Target[] = [];
  const threads = new LoadThreads();
  try {
    for (const mode of OBSERVABILITY_MODES) targets.push(await startMode(mode));
    const prepared: Prepared[] = [];
    for (const t of targets) prepared.push(await prepare(t, ctx, s, threads));
    let runNumber = 0;
    const run = async (p: Prepared, load: Load): Promise<Run> => {
      const pid = p.t.pid as number;
      const before = cpuSeconds(pid);
      const n = runNumber++;
      const r = merge(
        await Promise.all(
          shares(load === 'get' ? s.gets : s.creates, WORKERS).map((count, w) => {
            const job: Job =
              load === 'get'
                ? { kind: 'get', objects: p.objects, count, concurrency: CONCURRENCY }
                : {
                    kind: 'create',
                    namespaces: [p.ns],
                    prefix: `r${n}-${w}`,
                    count,
                    size: 1024,
                    concurrency: CONCURRENCY,
                  };
            return threads.run(p.t.endpoint, ctx.protocol, job);
          }),
        ),
      );
      return { ...r, cpuMicros: ((cpuSeconds(pid) - before) * 1e6) / Math.max(1, r.ok) };
    };
    const order: [number, Load][] = LOADS.flatMap((load) =>
      OBSERVABILITY_MODES.map((_, i): [number, Load] => [i, load]),
    );
    const runs = new Map<string, Run[]>(order.map(([i, l]) => [`${i} ${l}`, []]));
    for (const [i, l] of order) await run(prepared[i], l);
    const audited = targets[OBSERVABILITY_MODES.indexOf('audit-metadata')];
    const logBytesBefore = auditLogBytes(audited.dataDir as string);
    for (let round = 0; round < s.rounds; round++) {
      for (let k = 0; k < order.length; k++) {
        const [i, l] = order[(round + k) % order.length];
        const r = await run(prepared[i], l);
        runs.get(`${i} ${l}`)?.push(r);
        ctx.log(
          `round ${round + 1} of ${s.rounds}, ${l} on ${OBSERVABILITY_MODES[i]}: ${Math.round((r.ok / r.elapsedMs) * 1000)}/s, ${Math.round(r.cpuMicros)} µs CPU each`,
        );
      }
    }
    const rate = (r: JobResult) => (r.ok / r.elapsedMs) * 1000;
    const figures = order.map(([i, load]): ObservabilityFigures => {
      const mode = OBSERVABILITY_MODES[i];
      const mine = runs.get(`${i} ${load}`) ?? [];
      const base = BASELINE[mode];
      const theirs = base && (runs.get(`${OBSERVABILITY_MODES.indexOf(base.of)} ${load}`) ?? []);
      return {
        mode,
        load,
        perSecond: summarize(mine.map(rate)),
        ...(theirs === undefined
          ? {}
          : {
              overhead: summarize(mine.map((r, k) => 100 * (1 - rate(r) / rate(theirs[k])))),
              cpuOverhead: summarize(mine.map((r, k) => 100 * (r.cpuMicros / theirs[k].cpuMicros - 1))),
            }),
        cpuMicros: summarize(mine.map((r) => r.cpuMicros)),
        p50: summarize(mine.map((r) => percentile(r.latencies, 50))),
        p90: summarize(mine.map((r) => percentile(r.latencies, 90))),
        p99: summarize(mine.map((r) => percentile(r.latencies, 99))),
        failed: mine.reduce((a, r) => a + r.failed, 0),
      };
    });
    const logBytes = auditLogBytes(audited.dataDir as string);
    const auditedRequests = [...runs.entries()]
      .filter(([key]) => key.startsWith(`${OBSERVABILITY_MODES.indexOf('audit-metadata')} `))
      .reduce((a, [, rs]) => a + rs.reduce((b, r) => b + r.ok + r.failed, 0), 0);
    // The metrics' own cost, timed once the servers are idle.
    const metricsCost = requestMetricsCost(s.microIterations);
    return {
      figures,
      auditLogBytes: logBytes,
      auditBytesPerRequest: (logBytes - logBytesBefore) / Math.max(1, auditedRequests),
      metricsCost,
    };
  } finally {
    await threads.close();
    for (const t of targets) await t.stop();
  }
}

export async function observabilityScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  if (ctx.kubeconfig !== undefined)
    throw new Error('observability compares servers it starts itself in four modes (not --kubeconfig)');
  const s = ctx.quick ? QUICK : FULL;
  const result = await measure(ctx, s);
  return { results: result, markdown: renderObservability(result, s, ctx) };
}

function renderObservability(r: ObservabilityResult, s: Sizes, ctx: ScenarioContext): string {
  const rows = r.figures.map((x) => {
    const base = BASELINE[x.mode];
    return [
      x.load,
      LABELS[x.mode],
      formatSummary(x.perSecond),
      x.overhead === undefined
        ? ''
        : `${formatSummary(x.overhead, '%', 1)}${base?.targetPercent === undefined ? '' : ` (target < ${base.targetPercent}%)`}`,
      formatSummary(x.cpuMicros, ' µs', 0),
      x.cpuOverhead === undefined ? '' : formatSummary(x.cpuOverhead, '%', 1),
      formatSummary(x.p50, ' ms'),
      formatSummary(x.p90, ' ms'),
      formatSummary(x.p99, ' ms'),
      String(x.failed),
    ];
  });
  const table = renderTable({
    headers: [
      'load',
      'server',
      'requests/s',
      'throughput lost',
      'server CPU a request',
      'CPU added',
      'p50',
      'p90',
      'p99',
      'failed',
    ],
    rows,
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  const getCpu = r.figures.find((x) => x.mode === 'metrics' && x.load === 'get')?.cpuMicros.median;
  const micro = r.metricsCost;
  const microLine =
    getCpu === undefined
      ? ''
      : `Request metrics timed on their own (RequestMetrics.begin and end for a get answered 200, a fresh response each time, ${formatNumber(micro.iterations)} iterations, the same loop without them subtracted): ${formatNumber(micro.nsPerRequest)} ns a request, ${formatNumber((100 * micro.nsPerRequest) / 1000 / getCpu, 2)}% of the ${formatNumber(getCpu)} µs of server CPU a get takes.`;
  const auditLine =
    r.auditLogBytes === 0
      ? 'The audited server wrote no audit log: audit was not wired into the server this run started, so its row measures nothing but noise.'
      : `The audit log and the files it rotated to (at upstream's default of 100 MB) held ${formatNumber(r.auditLogBytes)} bytes at the end, ${formatNumber(r.auditBytesPerRequest)} bytes written per request of the counted runs (Metadata level: a RequestReceived and a ResponseComplete event each).`;
  return `${table}

Four servers from the sources, started at once on SQLite with fresh data directories (bench/api/observability-modes.ts): request metrics recording short-circuited (RequestMetrics.begin and end made no-ops in that process, a bench-only switch), the server as shipped, the same again in a second process (what two identical servers differ by here: the floor under which the other comparisons say nothing), and the shipped server with an audit policy of one rule (level Metadata) logging JSON to a file in the log backend's default blocking mode. Get: random gets of ${s.objects} ConfigMaps of 1 KiB, ${formatNumber(s.gets)} a run; create: ${formatNumber(s.creates)} ConfigMaps of 1 KiB a run; ${WORKERS * CONCURRENCY} clients in ${WORKERS} worker threads over ${ctx.protocol === 'http2' ? 'HTTP/2' : 'HTTP/1.1 keep-alive'} as the admin. Median (min–max) of ${s.rounds} rounds of one run per server and load in a rotating order, after one uncounted run each. "Throughput lost" and "CPU added" are the medians of each round's comparison with the run of the same load in that round on the server it is compared with: metrics against short-circuited metrics, the second shipped server and audit against the first shipped server. The load runs at nice ${LOAD_NICE}.

${microLine}

${auditLine}
`;
}
