// The server a benchmark drives: one this harness starts (the built program on a fresh data
// directory, or on a fresh etcd), or any compatible server named by a kubeconfig file.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { componentName, namingProfile } from '../../src/naming/profile.ts';
import { freePort, PROGRAM, readyz } from '../lib/program.ts';
import type { BackendName } from '../lib/scenario.ts';

const NAME = componentName(namingProfile('spec'), 'apiserver');

/** How to reach a server: plain data, so it can be handed to worker threads. */
export interface Endpoint {
  url: string;
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
  /** Skip certificate verification (kubeconfig insecure-skip-tls-verify). */
  insecure?: boolean;
}

export interface Target {
  endpoint: Endpoint;
  /** The server's process id when known (ours, or --server-pid), for memory figures. */
  pid?: number;
  label: string;
  /** Our server's data directory (its CA's key signs the bench's client certificates). */
  dataDir?: string;
  stop(): Promise<void>;
}

interface KubeconfigFile {
  'current-context'?: string;
  contexts?: { name: string; context: { cluster: string; user: string } }[];
  clusters?: {
    name: string;
    cluster: {
      server: string;
      'certificate-authority-data'?: string;
      'certificate-authority'?: string;
      'insecure-skip-tls-verify'?: boolean;
    };
  }[];
  users?: {
    name: string;
    user: {
      'client-certificate-data'?: string;
      'client-key-data'?: string;
      'client-certificate'?: string;
      'client-key'?: string;
      token?: string;
    };
  }[];
}

const b64 = (s: string | undefined) =>
  s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8');
const file = (p: string | undefined) => (p === undefined ? undefined : readFileSync(p, 'utf8'));

/** The endpoint of a kubeconfig's current context (certificates inline or by file, or a token). */
export function endpointFromKubeconfig(path: string): Endpoint {
  const config = parseYaml(readFileSync(path, 'utf8')) as KubeconfigFile;
  const contextName = config['current-context'] ?? config.contexts?.[0]?.name;
  const context = config.contexts?.find((c) => c.name === contextName)?.context;
  const cluster =
    config.clusters?.find((c) => c.name === context?.cluster)?.cluster ?? config.clusters?.[0]?.cluster;
  const user = config.users?.find((u) => u.name === context?.user)?.user ?? config.users?.[0]?.user;
  if (cluster === undefined) throw new Error(`${path}: no cluster for context ${contextName}`);
  return {
    url: cluster.server.replace(/\/$/, ''),
    ca: b64(cluster['certificate-authority-data']) ?? file(cluster['certificate-authority']),
    insecure: cluster['insecure-skip-tls-verify'] === true,
    cert: b64(user?.['client-certificate-data']) ?? file(user?.['client-certificate']),
    key: b64(user?.['client-key-data']) ?? file(user?.['client-key']),
    token: user?.token,
  };
}

async function waitReady(child: ChildProcess, port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if ((await readyz(port)) === 200) return;
    if (Date.now() > deadline) throw new Error('server not ready after 30 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Our server, built, on a fresh data directory (and a fresh etcd for etcd3), in its own process. */
export async function startOwnServer(backend: BackendName, extraFlags: string[] = []): Promise<Target> {
  if (!existsSync(PROGRAM)) throw new Error(`${PROGRAM} is missing: run npm run build first`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const flags = ['--data-dir', dir, ...extraFlags];
  let etcd: { stop(): Promise<void>; endpoint: string } | undefined;
  if (backend === 'etcd3') {
    const { startEtcd } = await import('../../src/storage/testing/etcd-server.ts');
    etcd = await startEtcd();
    flags.push('--storage-backend=etcd3', `--etcd-servers=${etcd.endpoint}`);
  }
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS passes flags to the server: "--perf-prof" records its compiled code
  // (jit-<pid>.dump, in its working directory) for `perf record -k mono -g -p <pid>` followed by
  // `perf inject --jit`, which profiles it under load as it runs. "--perf-basic-prof" is simpler but
  // one address can name several pieces of code over a run, as V8 moves and drops code: samples
  // then take another function's name (a write slice was reported as config map validation, and
  // the etcd client at 8-10% of the samples where the jitdump profile put it under 3%).
  // V8's own "--cpu-prof" changes what it measures: with a thousand watchers it raised the server's
  // main thread from about 62% to 83% of a core, nearly all of it in inlined code (turning inlining
  // off brought it back to 58% under the profiler, while without the profiler inlining made no
  // difference).
  // BENCH_SERVER_STDOUT=1 shows what such flags print (--trace-gc).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(process.execPath, [...nodeArgs, PROGRAM, ...flags, '--secure-port', String(port)], {
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  try {
    await waitReady(child, port);
  } catch (err) {
    child.kill('SIGKILL');
    await etcd?.stop();
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
    label: `${NAME} (${backend})`,
    dataDir: dir,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await etcd?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process in MiB, from /proc. */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? Number.NaN : Number(m[1]) / 1024;
}

/** Clock ticks a second in /proc's CPU times (USER_HZ: 100 on every Linux the bench meets). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user and system) a process has used, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses: the fields start after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are the 14th and 15th fields, the 12th and 13th after the name.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * The ceiling (ceiling-main.ts) in its own process: what the machine and the load generator allow a
 * server that does nothing but send over TLS what the list and watch scenarios must receive.
 */
export async function startCeiling(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ceiling-'));
  const port = await freePort();
  const main = fileURLToPath(new URL('./ceiling-main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main, String(port), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((res, rej) => {
      child.stdout?.once('data', () => res());
      child.once('exit', (code) => rej(new Error(`fan-out ceiling exited with ${code}`)));
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    endpoint: { url: `https://127.0.0.1:${port}`, ca: readFileSync(join(dir, 'ca.crt'), 'utf8') },
    pid: child.pid,
    label: 'ceiling: TLS and nothing else',
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
