// `get --auth …`: the get scenario as each kind of user (auth.ts) against one server, so that what
// authentication costs is read against client certificates in the same run. The kinds run in
// rounds, one run of each per round in a rotating order, after one uncounted run of each: a slow
// spell of the shared machine then lands on every kind rather than on one kind's runs. Each kind's
// figure beside the certificate's is the median of its per-round ratios to the certificate's run
// of the same round.

import { formatSummary } from '../lib/format.ts';
import type { AuthKind, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { type Summary, summarize } from '../lib/stats.ts';
import { renderTable } from '../lib/table.ts';
import { type AuthUser, prepareAuth } from './auth.ts';
import type { Job, JobResult } from './jobs.ts';
import { LoadThreads, merge, percentile, runInWorker, shares } from './load.ts';
import { freshNamespace } from './namespace.ts';
import { LOAD_NICE } from './priority.ts';
import { cpuSeconds, endpointFromKubeconfig, startOwnServer, type Target } from './target.ts';

const WORKERS = 2;
/** Clients in each worker: 64 in all, as the get scenario. */
const CONCURRENCY = 32;

interface Sizes {
  rounds: number;
  gets: number;
  objects: number;
}
// Many short runs rather than a few long ones: on the shared machine a neighbour's burst moved one
// kind's 20,000-get runs between 3,000 and 8,300 gets/s within a minute, and the more rounds, the
// less one burst weighs in the median of the ratios.
const FULL: Sizes = { rounds: 11, gets: 10_000, objects: 1000 };
const QUICK: Sizes = { rounds: 2, gets: 60, objects: 60 };

export interface AuthFigures {
  kind: AuthKind;
  username: string;
  perSecond: Summary;
  /** Per round, this kind's gets per second over the certificate's, in percent. */
  vsCert?: Summary;
  /** The server's CPU time (user and system) per get, when its process is known. */
  cpuMicros?: Summary;
  p50: Summary;
  p99: Summary;
  failed: number;
}

const LABELS: Record<AuthKind, string> = {
  cert: 'client certificate',
  'static-token': 'static token',
  'sa-token': 'service account token',
  'oidc-token': 'OpenID token',
};

/** One run's result and the server's CPU time per get in it (NaN when its process is unknown). */
type Run = JobResult & { cpuMicros: number };

/** The runs against one server: populate, make the users, warm up, then the rounds. */
async function measure(t: Target, ctx: ScenarioContext, users: (ns: string) => Promise<AuthUser[]>) {
  const s = ctx.quick ? QUICK : FULL;
  const ns = await freshNamespace(t.endpoint, ctx.protocol, 'get-auth');
  await Promise.all(
    shares(s.objects, WORKERS).map((count, w) =>
      runInWorker(t.endpoint, ctx.protocol, {
        kind: 'create',
        namespaces: [ns],
        prefix: `a-${w}`,
        count,
        size: 1024,
        concurrency: 32,
      }),
    ),
  );
  const objects = shares(s.objects, WORKERS).flatMap((count, w) =>
    Array.from({ length: count }, (_, i): [string, string] => [ns, `a-${w}-${i}`]),
  );
  const who = await users(ns);
  for (const u of who) ctx.log(`${t.label}: ${u.kind} authenticates as ${u.username}`);
  const threads = new LoadThreads();
  const cpu = () => (t.pid === undefined ? Number.NaN : cpuSeconds(t.pid));
  const run = async (u: AuthUser, gets: number): Promise<Run> => {
    const before = cpu();
    const r = merge(
      await Promise.all(
        shares(gets, WORKERS).map((count) => {
          const job: Job = { kind: 'get', objects, count, concurrency: CONCURRENCY };
          return threads.run(u.endpoint, ctx.protocol, job);
        }),
      ),
    );
    return { ...r, cpuMicros: ((cpu() - before) * 1e6) / Math.max(1, r.ok) };
  };
  try {
    for (const u of who) await run(u, s.gets);
    const runs: Run[][] = who.map(() => []);
    for (let round = 0; round < s.rounds; round++) {
      for (let k = 0; k < who.length; k++) {
        const i = (round + k) % who.length;
        const r = await run(who[i], s.gets);
        runs[i].push(r);
        ctx.log(
          `${t.label}: round ${round + 1} of ${s.rounds}, ${who[i].kind}: ${Math.round((r.ok / r.elapsedMs) * 1000)} gets/s, ${Math.round(r.cpuMicros)} µs CPU a get`,
        );
      }
    }
    const rate = (r: JobResult) => (r.ok / r.elapsedMs) * 1000;
    const cert = who.findIndex((u) => u.kind === 'cert');
    return who.map(
      (u, i): AuthFigures => ({
        kind: u.kind,
        username: u.username,
        perSecond: summarize(runs[i].map(rate)),
        ...(cert === -1
          ? {}
          : { vsCert: summarize(runs[i].map((r, round) => (100 * rate(r)) / rate(runs[cert][round]))) }),
        ...(t.pid === undefined ? {} : { cpuMicros: summarize(runs[i].map((r) => r.cpuMicros)) }),
        p50: summarize(runs[i].map((r) => percentile(r.latencies, 50))),
        p99: summarize(runs[i].map((r) => percentile(r.latencies, 99))),
        failed: runs[i].reduce((a, r) => a + r.failed, 0),
      }),
    );
  } finally {
    await threads.close();
  }
}

export async function getByAuthScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const kinds = ctx.auth ?? [];
  const s = ctx.quick ? QUICK : FULL;
  const setup = await prepareAuth(kinds, ctx.kubeconfig === undefined);
  const results: { label: string; value: AuthFigures[] }[] = [];
  try {
    const openers: (() => Promise<Target>)[] =
      ctx.kubeconfig === undefined
        ? ctx.backends.map((b) => () => startOwnServer(b, setup.flags))
        : [
            async () => ({
              endpoint: endpointFromKubeconfig(ctx.kubeconfig as string),
              label: `server of ${ctx.kubeconfig}`,
              stop: async () => {},
            }),
          ];
    for (const open of openers) {
      const t = await open();
      try {
        ctx.log(`${t.label}: running as ${kinds.join(', ')}`);
        const value = await measure(t, ctx, (ns) => setup.users(t, ctx.protocol, ns));
        results.push({ label: t.label, value });
      } finally {
        await t.stop();
      }
    }
  } finally {
    await setup.close();
  }
  const rows = results.flatMap(({ label, value }) =>
    value.map((x) => [
      label,
      `${LABELS[x.kind]} (${x.username.replace(/^(system:serviceaccount:)[^:]+/, '$1…')})`,
      formatSummary(x.perSecond),
      x.vsCert === undefined ? '' : formatSummary(x.vsCert, '%', 0),
      x.cpuMicros === undefined ? '' : formatSummary(x.cpuMicros, ' µs', 0),
      formatSummary(x.p50, ' ms'),
      formatSummary(x.p99, ' ms'),
      String(x.failed),
    ]),
  );
  const table = renderTable({
    headers: ['server', 'user', 'gets/s', 'of certificate’s', 'server CPU a get', 'p50', 'p99', 'failed'],
    rows,
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  return {
    results,
    markdown: `${table}

Random gets of ${s.objects} ConfigMaps of 1 KiB, ${s.gets} a run from ${WORKERS * CONCURRENCY} clients in ${WORKERS} worker threads over ${ctx.protocol === 'http2' ? 'HTTP/2' : 'HTTP/1.1 keep-alive'}, as each user in turn: median (min–max) of ${s.rounds} rounds of one run per user, in a rotating order, after one uncounted run each. "Of certificate’s" is the median of each round's ratio to the client certificate's run of that round. No user is in a privileged group, so all take the same way through authorization. Server CPU a get is the server process's user and system time over a run divided by its gets (load from other processes on the machine slows a run but adds nothing there). Tokens are checked once and then cached for 10 s, as upstream caches them. The load runs at nice ${LOAD_NICE}.
`,
  };
}
