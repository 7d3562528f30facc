// Ours against kube-apiserver on one etcd, interleaved: issue 33's comparison. Not part of the test
// suite and not a bench/run.ts scenario, because it needs a kube-apiserver binary
// (build-kube-apiserver.sh) and starts every server at once on a shared etcd.
//
//   npx tsx bench/kube/compare.ts [--ours LABEL=PROGRAM]… [--replicas LABEL=N]… [--kube BIN] [--sqlite]
//       [--rounds N] [--scenarios create,update,patch,get] [--node-args="--perf-prof"] [--quick]
//       [--out FILE]
//
// `--sqlite` runs our builds on their embedded SQLite store instead (to check that a change for
// etcd costs SQLite nothing); the etcd column then reads about 0.
// `--replicas LABEL=N` runs that build as N processes on the same etcd prefix (replicas, as several
// API servers share one etcd), each load thread driving one of them; its CPU is theirs summed.
// PROGRAM is a bundle of our server (node scripts/bundle.mjs --outdir dist/NAME gives
// dist/NAME/plat-apiserver.js), so that builds before and after a change run side by side. Each
// round runs every scenario on every server, in an order that rotates from round to round, so the
// shared machine's noise falls on all of them; figures are medians (min–max) over rounds, the
// ratios the medians of each round's ratio to kube-apiserver's. CPU per operation is the server
// process's user+system time over a run divided by its successful operations (etcd's likewise);
// "others" is the machine's busy CPU during the runs that neither the servers, etcd nor this
// harness used, i.e. other people's work.

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Job, JobResult } from '../api/jobs.ts';
import { LoadThreads, merge, percentile, shares } from '../api/load.ts';
import { freshNamespace } from '../api/namespace.ts';
import { cpuSeconds } from '../api/target.ts';
import { formatSummary } from '../lib/format.ts';
import { type Summary, summarize } from '../lib/stats.ts';
import { renderTable } from '../lib/table.ts';
import { type Running, sharedEtcd, startKube, startOurs } from './servers.ts';

const WORKERS = 2;
const SIZE = 1024;
type ScenarioName = 'create' | 'update' | 'patch' | 'get';

const { values } = parseArgs({
  options: {
    ours: { type: 'string', multiple: true },
    replicas: { type: 'string', multiple: true },
    sqlite: { type: 'boolean' },
    kube: { type: 'string' },
    rounds: { type: 'string' },
    scenarios: { type: 'string' },
    'node-args': { type: 'string' },
    quick: { type: 'boolean' },
    out: { type: 'string' },
  },
});
const quick = values.quick === true;
const rounds = Number(values.rounds ?? (quick ? 1 : 5));
const scenarios = (values.scenarios ?? 'create,update,patch,get').split(',') as ScenarioName[];
const nodeArgs = (values['node-args'] ?? '').split(' ').filter((a) => a !== '');
const sizes = quick
  ? { creates: 200, updateRounds: 2, patches: 200, gets: 400, getObjects: 100 }
  : { creates: 6000, updateRounds: 60, patches: 6000, gets: 20000, getObjects: 1000 };

/** A server under test: one process, or several replicas sharing its etcd prefix. */
interface Server {
  label: string;
  members: Running[];
}

/** What a server keeps between rounds: the objects its update, patch and get loads use. */
interface Prepared {
  server: Server;
  update: [string, string][];
  patch: [string, string][];
  get: [string, string][];
}

const threads = new LoadThreads();

/** The jobs at once, job i against member i modulo the members. */
async function run(s: Server, jobs: Job[]): Promise<JobResult> {
  return merge(
    await Promise.all(jobs.map((j, i) => threads.run(s.members[i % s.members.length].endpoint, 'http1', j))),
  );
}

async function populate(s: Server, name: string, count: number): Promise<[string, string][]> {
  const ns = await freshNamespace(s.members[0].endpoint, 'http1', name);
  const r = await run(
    s,
    shares(count, WORKERS).map((n, w) => ({
      kind: 'create',
      namespaces: [ns],
      prefix: `${name}-${w}`,
      count: n,
      size: SIZE,
      concurrency: 32,
    })),
  );
  if (r.failed > 0) throw new Error(`${s.label}: ${r.failed} creates failed while populating`);
  return shares(count, WORKERS).flatMap((n, w) =>
    Array.from({ length: n }, (_, i): [string, string] => [ns, `${name}-${w}-${i}`]),
  );
}

async function jobsFor(p: Prepared, scenario: ScenarioName, round: number): Promise<Job[]> {
  const half = (objects: [string, string][], w: number) => objects.filter((_, i) => i % WORKERS === w);
  switch (scenario) {
    case 'create': {
      const ns = await freshNamespace(p.server.members[0].endpoint, 'http1', `create${round}`);
      return shares(sizes.creates, WORKERS).map((n, w) => ({
        kind: 'create',
        namespaces: [ns],
        prefix: `c-${w}`,
        count: n,
        size: SIZE,
        concurrency: 32,
      }));
    }
    case 'update':
      return [0, 1].map((w) => ({
        kind: 'update',
        objects: half(p.update, w),
        rounds: sizes.updateRounds,
        size: SIZE,
        concurrency: 32,
      }));
    case 'patch':
      return [0, 1].map((w) => ({
        kind: 'patch',
        objects: half(p.patch, w),
        count: sizes.patches / WORKERS,
        concurrency: 32,
      }));
    case 'get':
      return shares(sizes.gets, WORKERS).map((n) => ({
        kind: 'get',
        objects: p.get,
        count: n,
        concurrency: 32,
      }));
  }
}

/** CPU seconds of a process's main thread (its thread id is the process id). */
function mainThreadSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Busy and total jiffies of the whole machine, from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + fields[4];
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

interface Sample {
  perSecond: number;
  cpuMsPerOp: number;
  /** Of the server's CPU, its main threads' (the rest: helper threads, the etcd I/O thread). */
  mainCpuMsPerOp: number;
  etcdCpuMsPerOp: number;
  /** Cores' worth of CPU the machine spent on work not in this comparison during the run. */
  others: number;
  p50: number;
  p99: number;
  failed: number;
}

async function measure(p: Prepared, etcdPid: number, scenario: ScenarioName, round: number): Promise<Sample> {
  const jobs = await jobsFor(p, scenario, round);
  const pids = [...p.server.members.map((m) => m.pid), etcdPid];
  const cpu0 = pids.map(cpuSeconds);
  const main0 = p.server.members.map((m) => mainThreadSeconds(m.pid));
  const self0 = process.cpuUsage();
  const m0 = machineTicks();
  const r = await run(p.server, jobs);
  const m1 = machineTicks();
  const self = process.cpuUsage(self0);
  const used = pids.map((pid, i) => cpuSeconds(pid) - cpu0[i]);
  const main = p.server.members.reduce((a, m, i) => a + mainThreadSeconds(m.pid) - main0[i], 0);
  const cpu = [used.slice(0, -1).reduce((a, b) => a + b, 0), used[used.length - 1]];
  const seconds = r.elapsedMs / 1000;
  // Jiffies are 1/100 s; the machine's figure counts every process, this harness's workers included.
  const busySeconds = (m1.busy - m0.busy) / 100;
  const ours = cpu[0] + cpu[1] + (self.user + self.system) / 1e6;
  return {
    perSecond: r.ok / seconds,
    cpuMsPerOp: (cpu[0] * 1000) / Math.max(1, r.ok),
    mainCpuMsPerOp: (main * 1000) / Math.max(1, r.ok),
    etcdCpuMsPerOp: (cpu[1] * 1000) / Math.max(1, r.ok),
    others: Math.max(0, busySeconds - ours) / seconds,
    p50: percentile(r.latencies, 50),
    p99: percentile(r.latencies, 99),
    failed: r.failed,
  };
}

async function main(): Promise<void> {
  const etcd = await sharedEtcd();
  const servers: Server[] = [];
  const replicas = new Map(
    (values.replicas ?? []).map((r) => [r.slice(0, r.indexOf('=')), Number(r.slice(r.indexOf('=') + 1))]),
  );
  const log = (m: string) => console.error(`[compare] ${m}`);
  try {
    let n = 0;
    for (const spec of values.ours ?? []) {
      const at = spec.indexOf('=');
      const [label, program] = at < 0 ? [`ours ${n}`, spec] : [spec.slice(0, at), spec.slice(at + 1)];
      const members: Running[] = [];
      const prefix = `/ours-${n++}`;
      // Listed before its processes start, so that a failed start still stops those already up.
      servers.push({ label, members });
      for (let i = 0; i < (replicas.get(label) ?? 1); i++) {
        const store = values.sqlite === true ? undefined : etcd.endpoint;
        members.push(await startOurs(label, program, store, prefix, nodeArgs));
        log(`${label} (pid ${members[i].pid}) ready`);
      }
    }
    if (values.kube !== undefined) {
      const kube = await startKube(values.kube, etcd.endpoint);
      servers.push({ label: kube.label, members: [kube] });
      log(`kube-apiserver (pid ${kube.pid}) ready`);
    }
    const prepared: Prepared[] = [];
    for (const s of servers) {
      prepared.push({
        server: s,
        update: scenarios.includes('update') ? await populate(s, 'u', 64) : [],
        patch: scenarios.includes('patch') ? await populate(s, 'p', 256) : [],
        get: scenarios.includes('get') ? await populate(s, 'g', sizes.getObjects) : [],
      });
    }
    // One uncounted run of each scenario per server: code warmed up, caches filled.
    for (const p of prepared) for (const sc of scenarios) await measure(p, etcd.pid, sc, -1);
    const samples = new Map<string, Sample[]>();
    const load: string[] = [];
    for (let round = 0; round < rounds; round++) {
      load.push(readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
      for (const sc of scenarios) {
        for (let i = 0; i < prepared.length; i++) {
          const p = prepared[(i + round) % prepared.length];
          const s = await measure(p, etcd.pid, sc, round);
          const key = `${p.server.label}\u0000${sc}`;
          samples.set(key, [...(samples.get(key) ?? []), s]);
          log(
            `round ${round} ${sc} ${p.server.label}: ${s.perSecond.toFixed(0)}/s, ${s.cpuMsPerOp.toFixed(3)} ms CPU/op, etcd ${s.etcdCpuMsPerOp.toFixed(3)}, others ${s.others.toFixed(2)} cores`,
          );
        }
      }
    }
    const markdown = report(servers, samples, load);
    console.log(markdown);
    if (values.out !== undefined) writeFileSync(values.out, `${markdown}\n${JSON.stringify([...samples])}\n`);
  } finally {
    await threads.close();
    for (const s of servers) for (const m of s.members) await m.stop();
    await etcd.stop();
  }
}

function report(servers: Server[], samples: Map<string, Sample[]>, load: string[]): string {
  const kube = servers.find((s) => s.label === 'kube-apiserver');
  const rows: string[][] = [];
  for (const sc of scenarios) {
    for (const s of servers) {
      const xs = samples.get(`${s.label}\u0000${sc}`) ?? [];
      const k = kube === undefined ? undefined : samples.get(`${kube.label}\u0000${sc}`);
      const ratio: Summary | undefined =
        k === undefined || s === kube ? undefined : summarize(xs.map((x, i) => x.perSecond / k[i].perSecond));
      rows.push([
        sc,
        s.label,
        formatSummary(summarize(xs.map((x) => x.perSecond))),
        ratio === undefined ? '' : formatSummary(ratio, '×', 2),
        formatSummary(summarize(xs.map((x) => x.cpuMsPerOp)), ' ms', 3),
        // A Go server's main thread says nothing: its work runs on every thread.
        s === kube ? '' : formatSummary(summarize(xs.map((x) => x.mainCpuMsPerOp)), ' ms', 3),
        formatSummary(summarize(xs.map((x) => x.etcdCpuMsPerOp)), ' ms', 3),
        formatSummary(summarize(xs.map((x) => x.p50)), ' ms'),
        formatSummary(summarize(xs.map((x) => x.p99)), ' ms'),
        formatSummary(summarize(xs.map((x) => x.others)), '', 2),
        String(xs.reduce((a, x) => a + x.failed, 0)),
      ]);
    }
  }
  const table = renderTable({
    headers: [
      'scenario',
      'server',
      'ops/s',
      'vs kube',
      'server CPU/op',
      'main thread',
      'etcd CPU/op',
      'p50',
      'p99',
      'others (cores)',
      'failed',
    ],
    rows,
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  const what = `64 clients (2 load threads × 32, HTTP/1.1 keep-alive, nice 10), 1 KiB ConfigMaps: ${sizes.creates} creates, 64 objects × ${sizes.updateRounds} PUTs, ${sizes.patches} merge patches over 256 objects, ${sizes.gets} gets over ${sizes.getObjects} objects per run; ${rounds} interleaved rounds after one uncounted run each. Load average at each round's start: ${load.join('; ')}.`;
  return `${table}\n\n${what}\n`;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
