// The `startup` scenario: the built API server program (in dist/cmd/) from process start to the
// first 200 on /readyz, on a fresh data directory (credentials generated) and on a restart (reused),
// and its resident memory once idle. Targets (issue 3): ready in under 0.5 s, idle RSS under 60 MB.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, PROGRAM, readyz } from '../lib/program.ts';
import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { renderTable } from '../lib/table.ts';

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? Number.NaN : Number(m[1]) / 1024;
}

interface StartSample {
  readyMs: number;
  idleRssMb: number;
}

async function startOnce(dataDir: string, idleMs: number): Promise<StartSample> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [PROGRAM, '--data-dir', dataDir, '--secure-port', String(port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      if ((await readyz(port)) === 200) break;
      if (performance.now() - t0 > 30_000) throw new Error('server not ready after 30 s');
      await new Promise((r) => setTimeout(r, 2));
    }
    const readyMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, idleMs));
    return { readyMs, idleRssMb: rssMb(child.pid as number) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function runStartup(ctx: ScenarioContext): Promise<ScenarioOutput> {
  if (!existsSync(PROGRAM)) throw new Error(`${PROGRAM} is missing: run npm run build first`);
  const rounds = ctx.quick ? 1 : 5;
  const idleMs = ctx.quick ? 200 : 3000;
  const fresh: StartSample[] = [];
  const restart: StartSample[] = [];
  for (let i = 0; i < rounds; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-start-'));
    try {
      ctx.log(`round ${i + 1}/${rounds}: fresh data directory`);
      fresh.push(await startOnce(dir, idleMs));
      ctx.log(`round ${i + 1}/${rounds}: restart on the same directory`);
      restart.push(await startOnce(dir, idleMs));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const row = (name: string, xs: StartSample[]) => [
    name,
    median(xs.map((x) => x.readyMs)).toFixed(0),
    Math.max(...xs.map((x) => x.readyMs)).toFixed(0),
    median(xs.map((x) => x.idleRssMb)).toFixed(1),
  ];
  const markdown = renderTable({
    headers: ['start', 'ready ms (median)', 'ready ms (max)', 'idle RSS MB (median)'],
    rows: [row('fresh data dir', fresh), row('restart', restart)],
    align: ['left', 'right', 'right', 'right'],
  });
  return {
    results: { rounds, idleMs, fresh, restart },
    markdown: `${markdown}\n\nTargets: ready < 500 ms, idle RSS < 60 MB.\n`,
  };
}

export const startupScenario: Scenario = {
  name: 'startup',
  description: 'built server: process start to /readyz 200, and idle resident memory',
  run: runStartup,
};
