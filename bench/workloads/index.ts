// The `rollout` scenario (issue 31): a Deployment of 1,000 replicas on 50 simulated nodes, then
// an image change rolled with the default strategy (25% surge, 25% unavailable). Reported: the
// time until `kubectl rollout status` would succeed for each, Pods created per second, the API
// requests every client issued, and the controller manager's CPU. Targets: the image change
// rolled in under 60 s, Pod creation at least 500 Pods/s.
// Files: plane.ts (what is driven), rollout.ts (the timed case), manager-main.ts (the manager's
// child process), report.ts (the table). May import src/ and bench/lib/, bench/controllers/child.ts.

import os from 'node:os';
import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { openRolloutPlane } from './plane.ts';
import { renderRolloutReport } from './report.ts';
import { type RolloutResult, runRollout } from './rollout.ts';

interface Sizes {
  runs: number;
  replicas: number;
  nodes: number;
  timeoutMs: number;
}

const FULL: Sizes = { runs: 3, replicas: 1_000, nodes: 50, timeoutMs: 600_000 };
const QUICK: Sizes = { runs: 1, replicas: 20, nodes: 3, timeoutMs: 120_000 };

export interface RolloutTargetResult {
  label: string;
  runs: RolloutResult[];
}

export interface RolloutResults {
  sizes: Sizes;
  loadBefore: number[];
  loadAfter: number[];
  targets: RolloutTargetResult[];
}

async function runTarget(ctx: ScenarioContext, backend: string, sizes: Sizes): Promise<RolloutTargetResult> {
  const plane = await openRolloutPlane(backend as 'sqlite' | 'etcd3', ctx.kubeconfig, sizes.nodes);
  const log = (m: string) => ctx.log(`${plane.label}: ${m}`);
  try {
    const runs: RolloutResult[] = [];
    for (let i = 0; i < sizes.runs; i++) {
      log(`run ${i + 1}/${sizes.runs}`);
      const namespace = `bench-rollout-${Date.now().toString(36)}-${i}`;
      runs.push(
        await runRollout(plane.client, plane.counters, {
          namespace,
          replicas: sizes.replicas,
          timeoutMs: sizes.timeoutMs,
          log,
        }),
      );
    }
    return { label: plane.label, runs };
  } finally {
    await plane.stop();
  }
}

async function runRolloutScenario(ctx: ScenarioContext): Promise<ScenarioOutput> {
  const sizes = ctx.quick ? QUICK : FULL;
  const loadBefore = os.loadavg();
  const targets: RolloutTargetResult[] = [];
  const backends = ctx.kubeconfig === undefined ? ctx.backends : [ctx.backends[0]];
  for (const backend of backends) targets.push(await runTarget(ctx, backend, sizes));
  const results: RolloutResults = { sizes, loadBefore, loadAfter: os.loadavg(), targets };
  return { results, markdown: renderRolloutReport(results) };
}

export const rolloutScenario: Scenario = {
  name: 'rollout',
  description:
    'a Deployment of 1,000 replicas on 50 simulated nodes, then an image change: time, Pods/s, API requests, manager CPU',
  run: runRolloutScenario,
};
