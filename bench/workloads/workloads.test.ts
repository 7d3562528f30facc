// A smoke run of the rollout scenario at a tiny size: the figures mean nothing and are never
// asserted; the path must work and the output keep its shape.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScenarioContext } from '../lib/scenario.ts';
import { type RolloutResults, rolloutScenario } from './index.ts';

const ctx: ScenarioContext = {
  backends: ['sqlite'],
  quick: true,
  protocol: 'http1',
  encoding: 'json',
  log: () => {},
};

// A guard against a hang, not a measure.
describe('rollout bench scenario (quick)', { timeout: 600_000 }, () => {
  it('rolls a Deployment out twice on simulated nodes and reports time, rate, requests and CPU', async () => {
    const out = await rolloutScenario.run(ctx);
    assert.match(out.markdown, /^\| target +\| figure +\| value +\| target +\| met +\|/);
    for (const row of [
      /\| create of 20 replicas: until rolled out +\|/,
      /\| create of 20 replicas: API requests +\|/,
      /\| create of 20 replicas: controller manager CPU +\|/,
      /\| Pods created per second +\|/,
      /\| image change of 20 replicas: until rolled out +\| .* \| < 60 s +\|/,
    ]) {
      assert.match(out.markdown, row);
    }
    const r = out.results as RolloutResults;
    assert.equal(r.targets.length, 1);
    const [run] = r.targets[0].runs;
    assert.equal(run.replicas, 20);
    assert.ok(run.podsPerSecond > 0);
    assert.ok((run.create.requests ?? 0) > 0);
    assert.ok((run.imageChange.managerCpuMs ?? 0) > 0);
  });
});
