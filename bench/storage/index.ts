// The `storage` scenario: raw throughput of each storage backend against the ceiling of the engine
// underneath it, so storage-layer overhead shows up as a number rather than a feeling.

import type { Scenario, ScenarioContext, ScenarioOutput } from '../lib/scenario.ts';
import { openBackend } from './backends.ts';
import { FULL, QUICK, type StorageBenchConfig } from './config.ts';
import { type BackendResult, measureBackend } from './measure.ts';
import { renderStorageReport } from './report.ts';

export async function runStorageBench(
  ctx: ScenarioContext,
  cfg: StorageBenchConfig,
): Promise<ScenarioOutput> {
  const results: BackendResult[] = [];
  for (const name of ctx.backends) {
    ctx.log(`${name}: opening`);
    const harness = await openBackend(name);
    try {
      results.push(await measureBackend(harness, cfg, ctx.log));
    } finally {
      await harness.close();
    }
  }
  return {
    results: { config: cfg, backends: results },
    markdown: renderStorageReport(results, cfg, ctx.quick),
  };
}

export const storageScenario: Scenario = {
  name: 'storage',
  description: 'write/read/list throughput of each storage backend against its raw engine ceiling',
  run: (ctx) => runStorageBench(ctx, ctx.quick ? QUICK : FULL),
};
