// Starts a throwaway etcd (Debian's etcd-server) on free loopback ports with a temporary data
// directory, for tests and benchmarks. Installs the package when it is missing and we are root.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EtcdServer {
  endpoint: string;
  dataDir: string;
  stop(): Promise<void>;
}

function hasEtcd(): boolean {
  try {
    execFileSync('etcd', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function ensureEtcdInstalled(): void {
  if (hasEtcd()) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      "etcd is not installed: install Debian's etcd-server package (apt-get install etcd-server)",
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['install', '-y', '-q', 'etcd-server'], { stdio: 'ignore', env });
  } catch {
    execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore', env });
    execFileSync('apt-get', ['install', '-y', '-q', 'etcd-server'], { stdio: 'ignore', env });
  }
}

/** A port free on loopback now (the kernel's pick, released for the caller to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitHealthy(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`etcd exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${endpoint}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`etcd at ${endpoint} did not become healthy within ${timeoutMs} ms`);
}

export async function startEtcd(opts: { progressNotifyIntervalMs?: number } = {}): Promise<EtcdServer> {
  ensureEtcdInstalled();
  const dataDir = mkdtempSync(join(tmpdir(), 'apiserver-test-etcd-'));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const child = spawn(
    'etcd',
    [
      '--name=test',
      `--data-dir=${dataDir}`,
      `--listen-client-urls=${endpoint}`,
      `--advertise-client-urls=${endpoint}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=test=${peer}`,
      `--experimental-watch-progress-notify-interval=${opts.progressNotifyIntervalMs ?? 500}ms`,
      '--log-level=error',
      '--logger=zap',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  try {
    await waitHealthy(endpoint, child, 15_000);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}\n${stderr}`);
  }
  return {
    endpoint,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
