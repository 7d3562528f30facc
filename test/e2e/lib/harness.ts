// Starts the control plane in-process on a free loopback port with a fresh data directory, and runs
// stock kubectl binaries against it with their own discovery cache.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startControlPlane } from '../../../src/cmd/control-plane.ts';
import type { ServerOptions } from '../../../src/server/options.ts';
import { type ServerHandle, startServer } from '../../../src/server/server.ts';
import { waitUntil } from '../../../src/server/testing/wait-for.ts';

export { waitFor, waitUntil } from '../../../src/server/testing/wait-for.ts';

export const KUBECTLS = [
  { name: 'kubectl 1.32', path: '/usr/bin/kubectl' },
  { name: 'kubectl 1.35', path: resolve(import.meta.dirname, '../../../.tools/kubectl-1.35') },
].filter((k) => {
  if (existsSync(k.path)) return true;
  throw new Error(`${k.path} is missing: run scripts/fetch-kubectl.sh (npm test runs it)`);
});

export interface TestServer {
  server: ServerHandle;
  dir: string;
  stop(): Promise<void>;
}

/**
 * The control plane as users start it: the API server and the controller manager in one process.
 * `controllers: false` starts the API server alone, for a server whose authorization lets no one
 * act (AlwaysDeny), where a manager could never take its lease. `simulatedNodes` joins that many
 * simulated nodes (and their scheduler), for workloads that run.
 */
export async function startTestServer(
  over: Partial<ServerOptions> = {},
  { controllers = true, simulatedNodes = 0 }: { controllers?: boolean; simulatedNodes?: number } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-e2e-'));
  if (!controllers) {
    const server = await startServer({ dataDir: dir, securePort: 0, ...over });
    await server.ready;
    return {
      server,
      dir,
      async stop() {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const plane = await startControlPlane({
    server: { dataDir: dir, securePort: 0, ...over },
    controllerManager: { log: { info: () => undefined, error: () => undefined } },
    simulatedNodes,
  });
  await plane.controllerManager.leading;
  return {
    server: plane.server,
    dir,
    async stop() {
      await plane.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs kubectl against the server; resolves with the exit code whatever it is. */
export function kubectl(bin: string, ts: TestServer, args: string[], input?: string): Promise<Run> {
  return new Promise((res) => {
    const child = execFile(
      bin,
      [
        '--kubeconfig',
        ts.server.adminConfigPath,
        '--cache-dir',
        join(ts.dir, `cache-${bin.length}`),
        ...args,
      ],
      { timeout: 30_000, env: { ...process.env, HOME: ts.dir } },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
        res({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Starts a long-running kubectl (a watch); the caller stops it. */
export function kubectlStream(
  bin: string,
  ts: TestServer,
  args: string[],
): { child: ChildProcess; output: () => string } {
  const child = spawn(
    bin,
    ['--kubeconfig', ts.server.adminConfigPath, '--cache-dir', join(ts.dir, `cache-${bin.length}`), ...args],
    { env: { ...process.env, HOME: ts.dir } },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return { child, output: () => out };
}

export function writeTemp(ts: TestServer, name: string, content: string): string {
  const path = join(ts.dir, name);
  writeFileSync(path, content);
  return path;
}

/** Polls until `predicate` holds or the time is up. */
export function eventually(predicate: () => boolean, ms = 10_000, what = 'condition'): Promise<void> {
  return waitUntil(predicate, what, ms);
}
