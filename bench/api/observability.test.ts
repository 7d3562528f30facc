// The observability scenario: the servers' options per mode, the metrics' own timing, and one quick
// run of the whole scenario (numbers meaningless, the four servers and both loads must work).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScenarioContext } from '../lib/scenario.ts';
import { requestMetricsCost } from './metrics-cost.ts';
import { observabilityScenario } from './observability.ts';
import { AUDIT_LOG, METADATA_POLICY, observabilityOptions } from './observability-modes.ts';

describe('observability modes', () => {
  it('only the audited mode carries audit options, a Metadata rule logging JSON to the data directory', () => {
    assert.equal(observabilityOptions('metrics-off', '/d', 1).audit, undefined);
    assert.equal(observabilityOptions('metrics', '/d', 1).audit, undefined);
    assert.deepEqual(
      observabilityOptions('metrics-again', '/d', 1),
      observabilityOptions('metrics', '/d', 1),
    );
    const audit = observabilityOptions('audit-metadata', '/d', 7).audit;
    assert.deepEqual(audit, { policy: METADATA_POLICY, log: { path: `/d/${AUDIT_LOG}`, format: 'json' } });
    assert.deepEqual(
      METADATA_POLICY.rules.map((r) => r.level),
      ['Metadata'],
    );
    // Every array of the rule is present, as a decoded policy has them.
    const rule = METADATA_POLICY.rules[0];
    for (const key of [
      'users',
      'userGroups',
      'verbs',
      'resources',
      'namespaces',
      'nonResourceURLs',
      'omitStages',
    ] as const) {
      assert.deepEqual(rule[key], [], key);
    }
  });

  it('times request metrics against the same loop without them', () => {
    const cost = requestMetricsCost(2000, 3);
    assert.equal(cost.iterations, 1998);
    for (const v of [cost.nsPerRequest, cost.nsWith, cost.nsWithout]) assert.ok(Number.isFinite(v) && v >= 0);
  });
});

const ctx: ScenarioContext = {
  backends: ['sqlite'],
  quick: true,
  protocol: 'http1',
  encoding: 'json',
  log: () => {},
};

// A guard against a hang, not a measure.
describe('observability scenario (quick)', { timeout: 300_000 }, () => {
  it('runs both loads on the four servers and reports every row', async () => {
    const out = await observabilityScenario(ctx);
    const result = out.results as { figures: { mode: string; load: string; failed: number }[] };
    assert.deepEqual(
      result.figures.map((f) => `${f.load} ${f.mode}`),
      [
        'get metrics-off',
        'get metrics',
        'get metrics-again',
        'get audit-metadata',
        'create metrics-off',
        'create metrics',
        'create metrics-again',
        'create audit-metadata',
      ],
    );
    assert.deepEqual(
      result.figures.map((f) => f.failed),
      [0, 0, 0, 0, 0, 0, 0, 0],
    );
    assert.match(out.markdown, /^\| load +\| server/);
    assert.match(out.markdown, /target < 3%/);
    assert.match(out.markdown, /target < 10%/);
  });
});
