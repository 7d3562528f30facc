// The API scenarios, all on core v1 ConfigMaps of 1 KiB so that any compatible server can run them:
// create, get, update, patch, list, watch and memory. Each figure is the median of several runs with
// min and max; the load always comes from worker threads.

import { formatNumber, formatSummary } from '../lib/format.ts';
import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { type Summary, summarize } from '../lib/stats.ts';
import { renderTable } from '../lib/table.ts';
import { authzLoadScenario } from './authz-load.ts';
import { getByAuthScenario } from './get-auth.ts';
import { hostile } from './hostile.ts';
import { apiClient } from './http-client.ts';
import { cmPath, configMap, type Job, type JobResult } from './jobs.ts';
import { LoadThreads, merge, percentile, runInWorker, shares } from './load.ts';
import { freshNamespace } from './namespace.ts';
import { LOAD_NICE } from './priority.ts';
import { endpointFromKubeconfig, rssMiB, startCeiling, startOwnServer, type Target } from './target.ts';

const SIZE = 1024;
/** Seconds of idle samples the memory scenario takes its settled figure from. */
const SETTLE_SECONDS = 60;
const WORKERS = 2;
/**
 * The watch scenario's objects: the writer keeps one write in flight on each, up to this many at
 * once, and every watcher watches their namespace.
 */
const TICKERS = Array.from({ length: 16 }, (_, i) => `ticker-${i}`);

interface Sizes {
  runs: number;
  creates: number;
  concurrencies: number[];
  gets: number;
  updateRounds: number;
  sharedUpdates: number;
  patches: number;
  listSizes: number[];
  watchers: number[];
  /** Watch runs per server and number of watchers: their latency tails vary more than other figures. */
  watchRuns: number;
  watchMs: number;
  /** How long the writer writes in the uncounted warm-up run. */
  watchWarmUpMs: number;
  memoryObjects: number;
}

const FULL: Sizes = {
  runs: 3,
  creates: 20_000,
  concurrencies: [1, 16, 64],
  gets: 20_000,
  updateRounds: 20,
  sharedUpdates: 200,
  patches: 20_000,
  listSizes: [10_000, 100_000],
  watchers: [100, 1000],
  watchRuns: 5,
  watchMs: 10_000,
  watchWarmUpMs: 3000,
  memoryObjects: 100_000,
};

const QUICK: Sizes = {
  runs: 3,
  creates: 60,
  concurrencies: [1, 4],
  gets: 60,
  updateRounds: 2,
  sharedUpdates: 8,
  patches: 40,
  listSizes: [50],
  watchers: [3],
  watchRuns: 3,
  watchMs: 600,
  watchWarmUpMs: 300,
  memoryObjects: 100,
};

/** How the load runs, for the notes under the tables. */
const LOAD_NOTE = `The load runs in worker threads at a lower priority than the server (nice ${LOAD_NICE}, bench/api/priority.ts): on one machine it no longer takes the server's turns on a contended core.`;

/** What the ceiling rows are, for the notes under the tables. */
const CEILING_NOTE =
  'The ceiling is a server that only sends, through the same TLS listener and watch writer, what the scenario must receive (bench/api/ceiling-main.ts): no server does better on this machine with this load generator.';

/**
 * The targets: ours on each backend asked for, or the one the kubeconfig names. With `withCeiling`,
 * our server is followed by the ceiling, so that its figures can be read against what this machine
 * and load generator allow (not when driving another server). Each is started when opened.
 */
function targetOpeners(ctx: ScenarioContext, withCeiling: boolean): (() => Promise<Target>)[] {
  return ctx.kubeconfig
    ? [
        async () => ({
          endpoint: endpointFromKubeconfig(ctx.kubeconfig as string),
          pid: ctx.serverPid,
          label: `server of ${ctx.kubeconfig}`,
          stop: async () => {},
        }),
      ]
    : [...ctx.backends.map((b) => () => startOwnServer(b)), ...(withCeiling ? [startCeiling] : [])];
}

/** Each target in turn, started before `fn` and stopped after it. */
async function forEachTarget<T>(
  ctx: ScenarioContext,
  fn: (t: Target) => Promise<T>,
  withCeiling = false,
): Promise<{ label: string; value: T }[]> {
  const out: { label: string; value: T }[] = [];
  for (const open of targetOpeners(ctx, withCeiling)) {
    const target = await open();
    try {
      ctx.log(`${target.label}: running`);
      out.push({ label: target.label, value: await fn(target) });
    } finally {
      await target.stop();
    }
  }
  return out;
}

/** Every target started at once for `fn`, and all stopped after it. */
async function withAllTargets<T>(
  ctx: ScenarioContext,
  withCeiling: boolean,
  fn: (targets: Target[]) => Promise<T>,
): Promise<T> {
  const targets: Target[] = [];
  try {
    for (const open of targetOpeners(ctx, withCeiling)) targets.push(await open());
    return await fn(targets);
  } finally {
    for (const t of targets) await t.stop();
  }
}

/** A fresh namespace for this scenario run (namespace.ts). */
const namespace = (t: Target, ctx: ScenarioContext, name: string) =>
  freshNamespace(t.endpoint, ctx.protocol, name);

/** Creates `count` objects with the load workers; their names. */
async function populate(
  t: Target,
  ctx: ScenarioContext,
  namespaces: string[],
  count: number,
  prefix: string,
): Promise<[string, string][]> {
  const parts = shares(count, WORKERS);
  await Promise.all(
    parts.map((n, w) =>
      runInWorker(t.endpoint, ctx.protocol, {
        kind: 'create',
        namespaces,
        prefix: `${prefix}-${w}`,
        count: n,
        size: SIZE,
        concurrency: 32,
      }),
    ),
  );
  return parts.flatMap((n, w) =>
    Array.from({ length: n }, (_, i): [string, string] => [
      namespaces[i % namespaces.length],
      `${prefix}-${w}-${i}`,
    ]),
  );
}

/** Runs one job split over the workers and merges the results. */
async function load(t: Target, ctx: ScenarioContext, jobs: Job[]): Promise<JobResult> {
  return merge(await Promise.all(jobs.map((j) => runInWorker(t.endpoint, ctx.protocol, j))));
}

interface Throughput {
  perSecond: Summary;
  p50: Summary;
  p90: Summary;
  p99: Summary;
  failed: number;
}

function throughput(runs: JobResult[]): Throughput {
  return {
    perSecond: summarize(runs.map((r) => (r.ok / r.elapsedMs) * 1000)),
    p50: summarize(runs.map((r) => percentile(r.latencies, 50))),
    p90: summarize(runs.map((r) => percentile(r.latencies, 90))),
    p99: summarize(runs.map((r) => percentile(r.latencies, 99))),
    failed: runs.reduce((a, r) => a + r.failed, 0),
  };
}

const throughputRow = (label: string, what: string, x: Throughput) => [
  label,
  what,
  formatSummary(x.perSecond),
  formatSummary(x.p50, ' ms'),
  formatSummary(x.p90, ' ms'),
  formatSummary(x.p99, ' ms'),
  String(x.failed),
];

function throughputTable(rows: string[][], ctx: ScenarioContext): string {
  return `${renderTable({
    headers: ['server', 'case', 'ops/s', 'p50', 'p90', 'p99', 'failed'],
    rows,
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right'],
  })}\n\nMedian (min–max) of ${ctx.quick ? QUICK.runs : FULL.runs} runs over ${ctx.protocol === 'http2' ? 'HTTP/2' : 'HTTP/1.1 keep-alive'}; load from ${WORKERS} worker threads. ${LOAD_NOTE}\n`;
}

const sizes = (ctx: ScenarioContext) => (ctx.quick ? QUICK : FULL);

async function createScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const s = sizes(ctx);
  const results = await forEachTarget(ctx, async (t) => {
    const byConcurrency: Record<number, Throughput> = {};
    for (const c of s.concurrencies) {
      const runs: JobResult[] = [];
      for (let run = 0; run < s.runs; run++) {
        const namespaces = await Promise.all(
          Array.from({ length: 10 }, (_, i) => namespace(t, ctx, `create${i}`)),
        );
        const parts = shares(s.creates, WORKERS);
        runs.push(
          await load(
            t,
            ctx,
            parts.map((n, w) => ({
              kind: 'create',
              namespaces,
              prefix: `c${c}-${w}`,
              count: n,
              size: SIZE,
              concurrency: Math.max(1, Math.round(c / WORKERS)),
            })),
          ),
        );
      }
      byConcurrency[c] = throughput(runs);
    }
    return byConcurrency;
  });
  const rows = results.flatMap(({ label, value }) =>
    Object.entries(value).map(([c, x]) => throughputRow(label, `${s.creates} creates, ${c} clients`, x)),
  );
  return { results, markdown: throughputTable(rows, ctx) };
}

async function getScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  if (ctx.auth !== undefined && ctx.auth.length > 0) return getByAuthScenario(ctx);
  const s = sizes(ctx);
  const results = await forEachTarget(ctx, async (t) => {
    const ns = await namespace(t, ctx, 'get');
    const objects = await populate(t, ctx, [ns], Math.min(1000, s.gets), 'g');
    const runs: JobResult[] = [];
    for (let run = 0; run < s.runs; run++) {
      runs.push(
        await load(
          t,
          ctx,
          shares(s.gets, WORKERS).map((n) => ({ kind: 'get', objects, count: n, concurrency: 32 })),
        ),
      );
    }
    return throughput(runs);
  });
  const rows = results.map(({ label, value }) => throughputRow(label, `random gets, 64 clients`, value));
  return { results, markdown: throughputTable(rows, ctx) };
}

async function updateScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const s = sizes(ctx);
  const results = await forEachTarget(ctx, async (t) => {
    const own: JobResult[] = [];
    const shared: JobResult[] = [];
    for (let run = 0; run < s.runs; run++) {
      const ns = await namespace(t, ctx, 'update');
      const objects = await populate(t, ctx, [ns], 64, 'u');
      // Each worker's lanes own disjoint objects: no conflicts by construction.
      own.push(
        await load(
          t,
          ctx,
          [0, 1].map((w) => ({
            kind: 'update',
            objects: objects.filter((_, i) => i % WORKERS === w),
            rounds: s.updateRounds,
            size: SIZE,
            concurrency: 32,
          })),
        ),
      );
      const c = apiClient(t.endpoint, ctx.protocol);
      await c.request('POST', cmPath(ns), configMap('shared', SIZE));
      c.close();
      shared.push(
        await load(
          t,
          ctx,
          shares(s.sharedUpdates, WORKERS).map((n) => ({
            kind: 'update-shared',
            object: [ns, 'shared'],
            count: n,
            concurrency: 8,
          })),
        ),
      );
    }
    return { own: throughput(own), shared: { ...throughput(shared), retries: shared.map((r) => r.retries) } };
  });
  const rows = results.flatMap(({ label, value }) => [
    throughputRow(label, 'PUT, 64 clients on their own objects', value.own),
    throughputRow(
      label,
      `PUT, 16 clients on one object (retries ${value.shared.retries.join('/')})`,
      value.shared,
    ),
  ]);
  return { results, markdown: throughputTable(rows, ctx) };
}

async function patchScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const s = sizes(ctx);
  const results = await forEachTarget(ctx, async (t) => {
    const ns = await namespace(t, ctx, 'patch');
    const objects = await populate(t, ctx, [ns], 256, 'p');
    const runs: JobResult[] = [];
    for (let run = 0; run < s.runs; run++) {
      runs.push(
        await load(
          t,
          ctx,
          [0, 1].map((w) => ({
            kind: 'patch',
            objects: objects.filter((_, i) => i % WORKERS === w),
            count: s.patches / WORKERS,
            concurrency: 32,
          })),
        ),
      );
    }
    return throughput(runs);
  });
  const rows = results.map(({ label, value }) => throughputRow(label, 'merge patch, 64 clients', value));
  return { results, markdown: throughputTable(rows, ctx) };
}

/** Server-side apply against merge patch of the same change, alternating within each run. */
async function applyScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const s = sizes(ctx);
  const results = await forEachTarget(ctx, async (t) => {
    const ns = await namespace(t, ctx, 'apply');
    const objects = await populate(t, ctx, [ns], 256, 'a');
    const jobs = (kind: 'patch' | 'apply') =>
      [0, 1].map((w) => ({
        kind,
        objects: objects.filter((_, i) => i % WORKERS === w),
        count: s.patches / WORKERS,
        concurrency: 32,
      }));
    const patches: JobResult[] = [];
    const applies: JobResult[] = [];
    for (let run = 0; run < s.runs; run++) {
      patches.push(await load(t, ctx, jobs('patch')));
      applies.push(await load(t, ctx, jobs('apply')));
    }
    const ratio = summarize(
      patches.map((p, i) => (100 * (applies[i].ok / applies[i].elapsedMs)) / (p.ok / p.elapsedMs)),
    );
    return { patch: throughput(patches), apply: throughput(applies), ratio };
  });
  const rows = results.flatMap(({ label, value }) => [
    throughputRow(label, 'merge patch, 64 clients', value.patch),
    throughputRow(label, 'server-side apply, 64 clients', value.apply),
  ]);
  const ratios = results
    .map(({ label, value }) => `${label}: apply/merge-patch throughput ${formatSummary(value.ratio, '%', 0)}`)
    .join('; ');
  return {
    results,
    markdown: `${throughputTable(rows, ctx)}
${ratios}.
`,
  };
}

/** The list runs against one server: per size and kind of list, the figures of its runs. */
async function measureList(t: Target, ctx: ScenarioContext) {
  const s = sizes(ctx);
  const out: Record<string, { latencyMs: Summary; mibPerSecond: Summary }> = {};
  for (const n of s.listSizes) {
    const ns = await namespace(t, ctx, `list${n}`);
    ctx.log(`populating ${n} objects`);
    await populate(t, ctx, [ns], n, 'l');
    for (const [name, query, page] of [
      ['unset', '', undefined],
      ['rv=0', '?resourceVersion=0', undefined],
      ['paged 500', '', 500],
    ] as const) {
      const runs: JobResult[] = [];
      for (let run = 0; run < s.runs; run++) {
        runs.push(
          await runInWorker(t.endpoint, ctx.protocol, {
            kind: 'list',
            path: `${cmPath(ns)}${query}`,
            repeats: 1,
            pageSize: page,
          }),
        );
      }
      out[`${n} objects, ${name}`] = {
        latencyMs: summarize(runs.map((r) => r.latencies[0])),
        mibPerSecond: summarize(runs.map((r) => r.bytes / 1048576 / (r.latencies[0] / 1000))),
      };
    }
  }
  return out;
}

async function listScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const s = sizes(ctx);
  const results = await forEachTarget(ctx, (t) => measureList(t, ctx), true);
  const rows = results.flatMap(({ label, value }) =>
    Object.entries(value).map(([what, x]) => [
      label,
      what,
      formatSummary(x.latencyMs, ' ms'),
      formatSummary(x.mibPerSecond, ' MiB/s'),
    ]),
  );
  return {
    results,
    markdown: `${renderTable({ headers: ['server', 'list', 'latency', 'throughput'], rows, align: ['left', 'left', 'right', 'right'] })}\n\nMedian (min–max) of ${s.runs} runs. ${LOAD_NOTE} ${CEILING_NOTE}\n`,
  };
}

interface WatchFigures {
  p50: Summary;
  p99: Summary;
  /** p99 of the events after the writer's first fifth (its first 2 s in a full run). */
  p99AfterWarmUp: Summary;
  /** Updates per second the writer achieved: a server short of CPU slows its writes below the rate offered. */
  writesPerSecond: Summary;
  delivered: number;
  dropped: number;
}

/** How long watchers keep listening after the last write: an event later than this is dropped. */
const WATCH_GRACE_MS = 2000;

/** Opening a thousand streams takes up to a minute (the watch job's own bound). */
const WATCH_OPEN_BOUND_MS = 90_000;

/**
 * The latencies of a watch run's events after the writer's first fifth: most of a run's tail came
 * from its first seconds (on the ceiling too), and this shows the rest apart from them.
 */
function afterWarmUp(r: JobResult, writes: number): number[] {
  const from = Math.floor(writes / 5);
  const sequences = r.sequences ?? [];
  return r.latencies.filter((_, i) => sequences[i] >= from);
}

/** A watch run's p99 for each second of the writer's writes, for the log: where a tail came from. */
function p99BySecond(r: JobResult, perSecond: number): number[] {
  const bins: number[][] = [];
  const sequences = r.sequences ?? [];
  for (let i = 0; i < r.latencies.length; i++) {
    const second = Math.floor(sequences[i] / perSecond);
    bins[second] ??= [];
    bins[second].push(r.latencies[i]);
  }
  return Array.from(bins, (b) => (b === undefined ? Number.NaN : percentile(b, 99)));
}

/**
 * What one watch run measured, reduced to its figures at once: a run's latencies are millions of
 * numbers, and the rounds keep every server's runs until the end.
 */
interface WatchRun {
  p50: number;
  p99: number;
  p99AfterWarmUp: number;
  /** For the log only. */
  p99BySecond: number[];
  writesPerSecond: number;
  delivered: number;
  dropped: number;
}

/**
 * One run of `watchers` watchers against one server, in a fresh namespace, on the kept load
 * threads; the writer writes for `writeMs`.
 */
async function watchRun(
  t: Target,
  ctx: ScenarioContext,
  threads: LoadThreads,
  perSecond: number,
  watchers: number,
  writeMs: number,
): Promise<WatchRun> {
  const s = sizes(ctx);
  const ns = await namespace(t, ctx, 'watch');
  const c = apiClient(t.endpoint, ctx.protocol);
  for (const name of TICKERS) await c.request('POST', cmPath(ns), configMap(name, SIZE));
  c.close();
  const parts = shares(watchers, WORKERS);
  // Every watcher's window closes at one moment, a grace period after the last write: workers
  // finish opening their streams seconds apart, and a window timed from each worker's own
  // opening closed early on the last events and counted them as dropped.
  let endWatch: () => void = () => {};
  const watchEnd = new Promise<void>((r) => {
    endWatch = r;
  });
  let opening = parts.length;
  let open: () => void = () => {};
  const allOpen = new Promise<void>((r) => {
    open = r;
  });
  const watching = parts.map((n) =>
    threads.run(
      t.endpoint,
      ctx.protocol,
      {
        kind: 'watch',
        namespace: ns,
        watchers: n,
        // A bound only: the scenario ends the watch.
        durationMs: s.watchMs + WATCH_OPEN_BOUND_MS,
        encoding: ctx.encoding,
      },
      () => {
        if (--opening === 0) open();
      },
      watchEnd,
    ),
  );
  // The writer starts once every watch is open, and a moment later.
  await allOpen;
  await new Promise((r) => setTimeout(r, ctx.quick ? 300 : 1000));
  const writer = threads.run(t.endpoint, ctx.protocol, {
    kind: 'write',
    namespace: ns,
    names: TICKERS,
    perSecond,
    durationMs: writeMs,
  });
  const grace = ctx.quick ? 300 : WATCH_GRACE_MS;
  void writer.then(() => setTimeout(endWatch, grace), endWatch);
  const [w, ...seen] = await Promise.all([writer, ...watching]);
  const m = merge(seen);
  // Events a watcher never got at all count as dropped too.
  const expected = w.ok * watchers;
  return {
    p50: percentile(m.latencies, 50),
    p99: percentile(m.latencies, 99),
    p99AfterWarmUp: percentile(afterWarmUp(m, w.ok), 99),
    p99BySecond: p99BySecond(m, perSecond),
    writesPerSecond: w.ok / (w.elapsedMs / 1000),
    delivered: m.ok,
    dropped: m.dropped + Math.max(0, expected - m.ok - m.dropped),
  };
}

/** The figures of one server's runs at one number of watchers. */
function watchFigures(runs: WatchRun[]): WatchFigures {
  return {
    p50: summarize(runs.map((r) => r.p50)),
    p99: summarize(runs.map((r) => r.p99)),
    p99AfterWarmUp: summarize(runs.map((r) => r.p99AfterWarmUp)),
    writesPerSecond: summarize(runs.map((r) => r.writesPerSecond)),
    delivered: runs.reduce((a, r) => a + r.delivered, 0),
    dropped: runs.reduce((a, r) => a + r.dropped, 0),
  };
}

/**
 * The watch runs, in rounds: each round runs every target once, so that a slow spell of the
 * machine (a neighbour, a burst of the host's own work) lands on all of them rather than on the
 * two or three runs of one. Run one target after another, the same build's median p99 with a
 * thousand watchers came out at 228 ms in one bench and at 92 ms in the next, minutes later.
 */
async function measureWatch(
  targets: Target[],
  ctx: ScenarioContext,
  perSecond: number,
): Promise<{ label: string; value: Record<number, WatchFigures> }[]> {
  const s = sizes(ctx);
  const out = targets.map((t) => ({ label: t.label, value: {} as Record<number, WatchFigures> }));
  const threads = new LoadThreads();
  try {
    // One uncounted run per server first, with the most watchers: the load threads' first run,
    // and a server's, measure compiling code and growing heaps rather than delivering events.
    for (const t of targets) {
      ctx.log(`${t.label}: warm-up run`);
      await watchRun(t, ctx, threads, perSecond, Math.max(...s.watchers), s.watchWarmUpMs);
    }
    for (const watchers of s.watchers) {
      const runs: WatchRun[][] = targets.map(() => []);
      for (let round = 0; round < s.watchRuns; round++) {
        for (const [i, t] of targets.entries()) {
          const run = await watchRun(t, ctx, threads, perSecond, watchers, s.watchMs - 500);
          runs[i].push(run);
          ctx.log(
            `${t.label}: ${watchers} watchers, run ${round + 1} of ${s.watchRuns}: p99 ${run.p99} ms, ${run.p99AfterWarmUp} after warm-up; by second ${run.p99BySecond.join(' ')}`,
          );
        }
      }
      for (const [i, r] of runs.entries()) out[i].value[watchers] = watchFigures(r);
    }
  } finally {
    await threads.close();
  }
  return out;
}

async function watchScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const s = sizes(ctx);
  const perSecond = ctx.quick ? 20 : 200;
  // The ceiling's watch streams are JSON lines only.
  const withCeiling = ctx.encoding === 'json';
  const results = await withAllTargets(ctx, withCeiling, (targets) => measureWatch(targets, ctx, perSecond));
  const rows = results.flatMap(({ label, value }) =>
    Object.entries(value).map(([n, x]) => [
      label,
      `${n} watchers, ${perSecond} updates/s${ctx.encoding === 'json' ? '' : `, ${ctx.encoding}`}`,
      formatSummary(x.p50, ' ms'),
      formatSummary(x.p99, ' ms'),
      formatSummary(x.p99AfterWarmUp, ' ms'),
      formatSummary(x.writesPerSecond, ''),
      formatNumber(x.delivered),
      String(x.dropped),
    ]),
  );
  return {
    results,
    markdown: `${renderTable({
      headers: [
        'server',
        'case',
        'delivery p50',
        'delivery p99',
        'p99 after warm-up',
        'updates/s done',
        'events delivered',
        'dropped',
      ],
      rows,
      align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
    })}\n\nDelivery latency from the writer's timestamp to each watcher; median (min–max) of ${s.watchRuns} runs, taken in rounds of one run per server after one uncounted run per server; the load threads are kept from run to run (bench/api/load.ts), and each run opens its own streams. "p99 after warm-up" leaves out the events of the writer's first fifth (its first 2 s in a full run). "Updates/s done" is the rate the writer achieved of the rate offered (a server short of CPU answers its writes late). ${LOAD_NOTE}${withCeiling ? ` ${CEILING_NOTE}` : ''}\n`,
  };
}

async function memoryScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const s = sizes(ctx);
  const results = await forEachTarget(ctx, async (t) => {
    if (t.pid === undefined) return { note: 'server pid unknown (pass --server-pid)' };
    const before = rssMiB(t.pid);
    const ns = await namespace(t, ctx, 'memory');
    await populate(t, ctx, [ns], s.memoryObjects, 'm');
    // A list makes any lazily built state (the cache's) real before the reading.
    const c = apiClient(t.endpoint, ctx.protocol);
    const listed = await c.request('GET', `${cmPath(ns)}?resourceVersion=0`);
    c.close();
    // Resident memory after a burst of writes holds the garbage they made until the runtime
    // returns idle memory, which V8's memory reducer does on its own schedule: measured here,
    // 30 to 40 s into idleness. The figure is the settled value, the lowest of 60 s of samples;
    // the peak is shown.
    const samples: number[] = [];
    for (let i = 0; i < (ctx.quick ? 3 : SETTLE_SECONDS); i++) {
      await new Promise((r) => setTimeout(r, 1000));
      samples.push(rssMiB(t.pid));
    }
    const after = Math.min(...samples);
    const peak = Math.max(...samples);
    const items = (JSON.parse(listed.body) as { items: unknown[] }).items;
    const jsonBytes = items.reduce<number>((a, o) => a + JSON.stringify(o).length, 0) / items.length;
    return {
      objects: s.memoryObjects,
      beforeMiB: before,
      afterMiB: after,
      peakMiB: peak,
      perObjectBytes: ((after - before) * 1048576) / s.memoryObjects,
      jsonBytes,
    };
  });
  const rows = results.map(({ label, value }) =>
    'note' in value
      ? [label, String(value.note), '', '', '']
      : [
          label,
          formatNumber(value.objects),
          `${formatNumber(value.beforeMiB, 1)} → ${formatNumber(value.afterMiB, 1)} MiB (peak ${formatNumber(value.peakMiB, 1)})`,
          `${formatNumber(value.perObjectBytes)} B`,
          `${formatNumber(value.jsonBytes)} B`,
        ],
  );
  return {
    results,
    markdown: `${renderTable({ headers: ['server', 'objects', 'resident memory', 'per object', 'JSON per object'], rows, align: ['left', 'right', 'right', 'right', 'right'] })}\n\nResident memory before the objects, then settled after them (the lowest of ${SETTLE_SECONDS} s of idle samples after a full list; the highest shown as peak).\n`,
  };
}

export const apiScenarios: Scenario[] = [
  {
    name: 'create',
    description: 'creates across 10 namespaces at 1, 16 and 64 clients',
    run: createScenario,
  },
  {
    name: 'get',
    description: 'random gets of existing objects, 64 clients (--auth: as each kind of user)',
    run: getScenario,
  },
  {
    name: 'update',
    description: 'PUT on own objects (64 clients) and on one object (16, retrying conflicts)',
    run: updateScenario,
  },
  { name: 'patch', description: 'merge patches, 64 clients', run: patchScenario },
  {
    name: 'apply',
    description: 'server-side apply against merge patch of the same change, 64 clients',
    run: applyScenario,
  },
  {
    name: 'list',
    description: 'full lists of 10k and 100k objects: unset, rv=0, paged by 500',
    run: listScenario,
  },
  {
    name: 'watch',
    description: '100 and 1000 watchers while a writer makes 200 updates/s',
    run: watchScenario,
  },
  { name: 'memory', description: 'server resident memory after 100k objects', run: memoryScenario },
  {
    name: 'authz-load',
    description: 'get and create as an RBAC-bound user against system:masters, 2,200 RBAC objects stored',
    run: authzLoadScenario,
  },
  hostile,
];
