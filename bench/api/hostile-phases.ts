// The hostile scenario's phases against one server: a quiet baseline, then stalled watchers beside
// normal ones, then rapid HTTP/2 resets of a large LIST, then thousands of idle connections. Each
// phase samples the server's memory through the monitor, lets it settle after, and counts what the
// server did to the hostile clients (closed them, refused them, sent GOAWAY).

import type { ScenarioContext } from '../lib/scenario.ts';
import type { GetResult, HeldResult, ResetResult } from './hostile-jobs.ts';
import type { RssMonitor } from './hostile-monitor.ts';
import type { HostileThreads } from './hostile-threads.ts';
import { apiClient } from './http-client.ts';
import { cmPath, configMap, type JobResult } from './jobs.ts';
import { merge, percentile, shares } from './load.ts';
import { freshNamespace } from './namespace.ts';
import type { Target } from './target.ts';

export interface HostileSizes {
  slowWatchers: number;
  normalWatchers: number;
  writesPerSecond: number;
  writeMs: number;
  quietGetMs: number;
  quietWatchMs: number;
  warmUpMs: number;
  settleMs: number;
  collection: number;
  resets: number;
  burst: number;
  burstPauseMs: number;
  /** Gets go on this long after the last reset: a server may still be at work on the resets. */
  afterResetsMs: number;
  idleConnections: number;
  idleHoldMs: number;
  /** The last part of the idle hold, measured with gets. */
  idleGetMs: number;
  getObjects: number;
}

export const SIZE = 1024;
/** Closed-loop get clients: enough to keep the server busy, few enough to leave it room for the rest. */
export const GET_CLIENTS = 8;
const TICKERS = Array.from({ length: 16 }, (_, i) => `ticker-${i}`);
/** A bound on any phase's opening of connections; the phases end their jobs well before. */
const OPEN_BOUND_MS = 180_000;

export interface PhaseContext {
  t: Target;
  ctx: ScenarioContext;
  s: HostileSizes;
  threads: HostileThreads;
  monitor: RssMonitor;
}

export interface GetFigures {
  perSecond: number;
  p50: number;
  p99: number;
  failed: number;
}

export interface WatchFigures {
  p50: number;
  p99: number;
  delivered: number;
  missed: number;
  writesPerSecond: number;
  writeFailures: number;
  /**
   * The writer's run in six equal parts: of the events each part wrote, the share (%) the
   * watchers got, and their p99 (ms): where a stall began, and whether it ended.
   */
  byPart: { deliveredPct: number; p99: number }[];
}

/** RSS of a phase: before it, its highest, and the lowest of the settle after it (MiB; NaN unknown). */
export interface RssFigures {
  startMiB: number;
  maxMiB: number;
  endMiB: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stop signal for a job: `stop()` resolves the promise the thread runner listens to. */
function stopper(): { promise: Promise<void>; stop: () => void } {
  let stop: () => void = () => {};
  const promise = new Promise<void>((r) => {
    stop = r;
  });
  return { promise, stop };
}

export function getFigures(r: GetResult): GetFigures {
  return {
    perSecond: r.elapsedMs > 0 ? (r.ok / r.elapsedMs) * 1000 : 0,
    p50: percentile(r.latencies, 50),
    p99: percentile(r.latencies, 99),
    failed: r.failed,
  };
}

const lowest = (xs: number[]) => (xs.length === 0 ? Number.NaN : Math.min(...xs));
const highest = (xs: number[]) => (xs.length === 0 ? Number.NaN : Math.max(...xs));

/** Lets the server settle, then the phase's RSS figures from the monitor's samples. */
async function settle(p: PhaseContext, phase: string, startMiB: number, mark: number): Promise<RssFigures> {
  p.monitor.enter(`${phase} (settling)`);
  const settleMark = p.monitor.mark();
  await sleep(p.s.settleMs);
  p.monitor.sample();
  return { startMiB, maxMiB: highest(p.monitor.since(mark)), endMiB: lowest(p.monitor.since(settleMark)) };
}

/** Creates `count` ConfigMaps of SIZE in `ns` from two threads; their names. */
export async function populate(p: PhaseContext, ns: string, count: number, prefix: string) {
  const parts = shares(count, 2);
  const done = await Promise.all(
    parts.map((n, w) =>
      p.threads.run(p.t.endpoint, 'http1', {
        kind: 'create',
        namespaces: [ns],
        prefix: `${prefix}-${w}`,
        count: n,
        size: SIZE,
        concurrency: 16,
      }),
    ),
  );
  const failed = done.reduce((a, r) => a + r.failed, 0);
  if (failed > 0) throw new Error(`${failed} of ${count} creates failed`);
  return parts.flatMap((n, w) =>
    Array.from({ length: n }, (_, i): [string, string] => [ns, `${prefix}-${w}-${i}`]),
  );
}

/** Gets of `objects` until `stop` resolves, from one thread; resolves `ready` once its clients are connected. */
function gets(p: PhaseContext, objects: [string, string][], stop: Promise<void>, ready?: () => void) {
  return p.threads.run(
    p.t.endpoint,
    'http1',
    {
      kind: 'get-for',
      objects,
      concurrency: GET_CLIENTS,
      maxMs: OPEN_BOUND_MS + p.s.writeMs + p.s.idleHoldMs,
    },
    ready,
    stop,
  );
}

/** A fresh namespace with the writer's objects: what the normal (and slow) watchers watch. */
async function watchNamespace(p: PhaseContext): Promise<string> {
  const ns = await freshNamespace(p.t.endpoint, 'http1', 'hostile-watch');
  const c = apiClient(p.t.endpoint, 'http1');
  try {
    for (const name of TICKERS) await c.request('POST', cmPath(ns), configMap(name, SIZE));
  } finally {
    c.close();
  }
  return ns;
}

/**
 * Normal watchers (from two threads, a connection each) while the writer writes for `writeMs`;
 * `alongside` starts with the writer and is stopped when it ends. The watchers' figures.
 */
async function watchRun<T>(
  p: PhaseContext,
  ns: string,
  writeMs: number,
  alongside?: (stop: Promise<void>) => Promise<T>,
): Promise<{ watch: WatchFigures; alongside?: T }> {
  const parts = shares(p.s.normalWatchers, 2).filter((n) => n > 0);
  const end = stopper();
  let opening = parts.length;
  const allOpen = stopper();
  const watching = parts.map((n) =>
    p.threads.run(
      p.t.endpoint,
      'http1',
      { kind: 'watch', namespace: ns, watchers: n, durationMs: writeMs + OPEN_BOUND_MS },
      () => {
        if (--opening === 0) allOpen.stop();
      },
      end.promise,
    ),
  );
  await allOpen.promise;
  await sleep(p.ctx.quick ? 300 : 1000);
  const stopAlongside = stopper();
  const side = alongside?.(stopAlongside.promise);
  const writer = p.threads.run(p.t.endpoint, 'http1', {
    kind: 'write',
    namespace: ns,
    names: TICKERS,
    perSecond: p.s.writesPerSecond,
    durationMs: writeMs,
  });
  const w = await writer.finally(() => stopAlongside.stop());
  // Events still on their way get a moment before every watcher's window closes at once.
  await sleep(p.ctx.quick ? 300 : 2000);
  end.stop();
  const m: JobResult = merge(await Promise.all(watching));
  const expected = w.ok * p.s.normalWatchers;
  const byPart = parts6(m, w.ok + w.failed, p.s.normalWatchers);
  p.ctx.log(
    `${p.t.label}: ${p.s.normalWatchers} watchers, by sixth of the writes: delivered ${byPart.map((x) => `${Math.round(x.deliveredPct)}%`).join(' ')}; p99 ${byPart.map((x) => Math.round(x.p99)).join(' ')} ms`,
  );
  return {
    watch: {
      p50: percentile(m.latencies, 50),
      p99: percentile(m.latencies, 99),
      delivered: m.ok,
      missed: m.dropped + Math.max(0, expected - m.ok - m.dropped),
      writesPerSecond: w.ok / (w.elapsedMs / 1000),
      writeFailures: w.failed,
      byPart,
    },
    ...(side === undefined ? {} : { alongside: await side }),
  };
}

/** A watch run's events split by the sixth of the writer's writes they came from. */
function parts6(m: JobResult, writes: number, watchers: number): WatchFigures['byPart'] {
  const per = Math.max(1, Math.ceil(writes / 6));
  const latencies: number[][] = Array.from({ length: 6 }, () => []);
  const sequences = m.sequences ?? [];
  for (let i = 0; i < m.latencies.length; i++) {
    const part = Math.floor(sequences[i] / per);
    if (part < 6) latencies[part].push(m.latencies[i]);
  }
  return latencies.map((l, part) => {
    const written = Math.max(0, Math.min(per, writes - part * per));
    return {
      deliveredPct: written === 0 ? Number.NaN : (100 * l.length) / (written * watchers),
      p99: percentile(l, 99),
    };
  });
}

export interface QuietFigures {
  startMiB: number;
  get: GetFigures;
  watch: WatchFigures;
  objects: [string, string][];
}

/** Phase 1: RSS at start, then gets and normal watchers with nothing hostile going on. */
export async function quietPhase(p: PhaseContext): Promise<QuietFigures> {
  const startMiB = p.monitor.enter('quiet');
  const ns = await freshNamespace(p.t.endpoint, 'http1', 'hostile-get');
  const objects = await populate(p, ns, p.s.getObjects, 'g');
  const stop = stopper();
  const got = gets(p, objects, stop.promise, () => setTimeout(stop.stop, p.s.quietGetMs));
  const get = getFigures(await got);
  // One uncounted run first: the threads' and the server's first run measure compiling code.
  await watchRun(p, await watchNamespace(p), p.s.warmUpMs);
  const { watch } = await watchRun(p, await watchNamespace(p), p.s.quietWatchMs);
  return { startMiB, get, watch, objects };
}

export interface SlowFigures {
  rss: RssFigures;
  slow: HeldResult;
  watch: WatchFigures;
  get: GetFigures;
}

/** Phase 2: stalled watchers that never read, beside normal ones, with gets alongside. */
export async function slowPhase(p: PhaseContext, objects: [string, string][]): Promise<SlowFigures> {
  const mark = p.monitor.mark();
  const startMiB = p.monitor.enter('slow watchers');
  const ns = await watchNamespace(p);
  const endSlow = stopper();
  const slowOpen = stopper();
  const slow = p.threads.run(
    p.t.endpoint,
    'http1',
    {
      kind: 'slow-watch',
      path: `${cmPath(ns)}?watch=true&resourceVersion=0&allowWatchBookmarks=true`,
      watchers: p.s.slowWatchers,
      openConcurrency: 32,
      maxMs: OPEN_BOUND_MS + p.s.writeMs + 60_000,
    },
    slowOpen.stop,
    endSlow.promise,
  );
  // The safety stop ends the stalled watchers, the cause of any runaway memory, at once.
  void p.monitor.guard().then(endSlow.stop);
  await Promise.race([slowOpen.promise, slow]);
  p.ctx.log(`${p.t.label}: ${p.s.slowWatchers} slow watchers open; normal watchers and writer next`);
  const run = await watchRun(p, ns, p.s.writeMs, (stop) => gets(p, objects, stop));
  endSlow.stop();
  const held = await slow;
  const rss = await settle(p, 'slow watchers', startMiB, mark);
  return { rss, slow: held, watch: run.watch, get: getFigures(run.alongside as GetResult) };
}

export interface ResetFigures {
  rss: RssFigures;
  objects: number;
  listBytes: number;
  listStatus: number;
  resets: ResetResult;
  get: GetFigures;
}

/** Phase 3: a large collection, then LIST streams over HTTP/2 reset as soon as they are sent. */
export async function resetPhase(p: PhaseContext, objects: [string, string][]): Promise<ResetFigures> {
  p.monitor.enter('rapid reset (creating)');
  const ns = await freshNamespace(p.t.endpoint, 'http1', 'hostile-list');
  await populate(p, ns, p.s.collection, 'r');
  // One whole LIST first: its size, and the path warm, as it would be on a live server.
  const c = apiClient(p.t.endpoint, 'http1');
  const list = await c.request('GET', cmPath(ns)).finally(() => c.close());
  const mark = p.monitor.mark();
  const startMiB = p.monitor.enter('rapid reset');
  const stopGets = stopper();
  const getsReady = stopper();
  const got = gets(p, objects, stopGets.promise, getsReady.stop);
  await getsReady.promise;
  const endResets = stopper();
  void p.monitor.guard().then(endResets.stop);
  const resets = await p.threads.run(
    p.t.endpoint,
    'http2',
    {
      kind: 'rapid-reset',
      path: cmPath(ns),
      streams: p.s.resets,
      burst: p.s.burst,
      pauseMs: p.s.burstPauseMs,
      maxSessions: Math.ceil(p.s.resets / 50) + 5,
      maxMs: 120_000,
    },
    undefined,
    endResets.promise,
  );
  await sleep(p.s.afterResetsMs);
  stopGets.stop();
  const get = getFigures(await got);
  const rss = await settle(p, 'rapid reset', startMiB, mark);
  return { rss, objects: p.s.collection, listBytes: list.bytes, listStatus: list.status, resets, get };
}

export interface IdleFigures {
  rss: RssFigures;
  withRequest: HeldResult;
  withoutRequest: HeldResult;
  get: GetFigures;
}

/** Phase 4: connections that make one request (half) or none (half), then sit idle. */
export async function idlePhase(p: PhaseContext, objects: [string, string][]): Promise<IdleFigures> {
  const mark = p.monitor.mark();
  const startMiB = p.monitor.enter('idle connections');
  const end = stopper();
  const [a, b] = shares(p.s.idleConnections, 2);
  let opening = 2;
  const allOpen = stopper();
  const opened = () => {
    if (--opening === 0) allOpen.stop();
  };
  const maxMs = OPEN_BOUND_MS + p.s.idleHoldMs;
  const held = [
    { count: a, path: '/version' },
    { count: b, path: undefined },
  ].map(({ count, path }) =>
    p.threads.run(
      p.t.endpoint,
      'http1',
      { kind: 'idle-connections', count, path, openConcurrency: 32, maxMs },
      opened,
      end.promise,
    ),
  );
  void p.monitor.guard().then(end.stop);
  await Promise.race([allOpen.promise, Promise.all(held)]);
  p.ctx.log(`${p.t.label}: ${p.s.idleConnections} idle connections open; holding them`);
  await Promise.race([sleep(p.s.idleHoldMs - p.s.idleGetMs), end.promise]);
  const stopGets = stopper();
  const got = gets(p, objects, stopGets.promise);
  await Promise.race([sleep(p.s.idleGetMs), end.promise]);
  stopGets.stop();
  end.stop();
  const [withRequest, withoutRequest] = await Promise.all(held);
  const get = getFigures(await got);
  const rss = await settle(p, 'idle connections', startMiB, mark);
  return { rss, withRequest, withoutRequest, get };
}
