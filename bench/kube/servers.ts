// The servers bench/kube/compare.ts puts side by side on one etcd: builds of ours (each under its
// own etcd prefix) and a kube-apiserver binary (bench/kube/build-kube-apiserver.sh), plus the etcd
// they share. Each is a process whose CPU time the comparison reads from /proc.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEtcd } from '../../src/storage/testing/etcd-server.ts';
import type { Endpoint } from '../api/target.ts';
import { freePort } from '../lib/program.ts';

export interface Running {
  label: string;
  endpoint: Endpoint;
  pid: number;
  stop(): Promise<void>;
}

/**
 * GET /readyz's status (0 while nothing answers), with a bearer token when given: kube-apiserver
 * turns anonymous requests off under AlwaysAllow.
 */
function readyz(port: number, token: string | undefined): Promise<number> {
  return new Promise((res) => {
    const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
    const req = request(
      { host: '127.0.0.1', port, path: '/readyz', rejectUnauthorized: false, timeout: 1000, headers },
      (r) => {
        r.resume();
        res(r.statusCode ?? 0);
      },
    );
    req.on('error', () => res(0));
    req.end();
  });
}

/** Waits for /readyz; a server that never gets there is killed, so that nothing is left running. */
async function waitReady(child: ChildProcess, port: number, what: string, token?: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if ((await readyz(port, token)) === 200) return;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${what} not ready after 120 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The process id of the etcd serving `dataDir` (startEtcd does not hand it out). */
function etcdPid(dataDir: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.startsWith('etcd\0') && cmd.includes(`--data-dir=${dataDir}`)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no etcd process for ${dataDir}`);
}

export async function sharedEtcd(): Promise<{ endpoint: string; pid: number; stop(): Promise<void> }> {
  const etcd = await startEtcd();
  return { endpoint: etcd.endpoint, pid: etcdPid(etcd.dataDir), stop: () => etcd.stop() };
}

/**
 * Our server from a bundled program (scripts/bundle.mjs --outdir), on etcd under `prefix`, or on
 * its embedded SQLite store when `etcd` is undefined.
 */
export async function startOurs(
  label: string,
  program: string,
  etcd: string | undefined,
  prefix: string,
  nodeArgs: string[],
  extraFlags: string[] = [],
): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-compare-ours-'));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      resolve(program),
      '--data-dir',
      dir,
      ...(etcd === undefined
        ? []
        : ['--storage-backend=etcd3', `--etcd-servers=${etcd}`, `--etcd-prefix=${prefix}`]),
      '--secure-port',
      String(port),
      ...extraFlags,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], cwd: dir },
  );
  await waitReady(child, port, label);
  return {
    label,
    endpoint: {
      url: `https://127.0.0.1:${port}`,
      ca: readFileSync(join(dir, 'ca.crt'), 'utf8'),
      cert: readFileSync(join(dir, 'admin.crt'), 'utf8'),
      key: readFileSync(join(dir, 'admin.key'), 'utf8'),
    },
    pid: child.pid as number,
    stop: stopper(child, dir),
  };
}

/**
 * kube-apiserver on etcd with AlwaysAllow authorization and a static token in system:masters; its
 * serving certificate is self-signed (--cert-dir), so the bench skips verification.
 */
export async function startKube(bin: string, etcd: string): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-compare-kube-'));
  const port = await freePort();
  const token = `bench-${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(dir, 'tokens.csv'), `${token},bench-admin,bench-admin,"system:masters"\n`);
  execFileSync('openssl', ['genrsa', '-out', join(dir, 'sa.key'), '2048'], { stdio: 'ignore' });
  const child = spawn(
    bin,
    [
      `--etcd-servers=${etcd}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${join(dir, 'certs')}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      '--authorization-mode=AlwaysAllow',
      '--service-account-issuer=https://kubernetes.default.svc',
      `--service-account-key-file=${join(dir, 'sa.key')}`,
      `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
      '--service-cluster-ip-range=10.0.0.0/24',
      '--endpoint-reconciler-type=none',
      '--v=0',
    ],
    { stdio: ['ignore', 'ignore', process.env.KUBE_STDERR ? 'inherit' : 'ignore'], cwd: dir },
  );
  await waitReady(child, port, 'kube-apiserver', token);
  return {
    label: 'kube-apiserver',
    endpoint: { url: `https://127.0.0.1:${port}`, insecure: true, token },
    pid: child.pid as number,
    stop: stopper(child, dir),
  };
}
