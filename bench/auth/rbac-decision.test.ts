// Smoke run of the authz scenario: every case decides as expected and is measured.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authzScenario } from './rbac-decision.ts';

describe('authz bench scenario (quick)', () => {
  it('measures each decision over the full population', async () => {
    const out = await authzScenario.run({
      backends: ['sqlite'],
      quick: true,
      protocol: 'http1',
      encoding: 'json',
      log: () => {},
    });
    const r = out.results as { index: Record<string, number>; cases: { medianUs: number }[] };
    assert.deepEqual(r.index, { Role: 1000, ClusterRole: 201, RoleBinding: 1000, ClusterRoleBinding: 103 });
    assert.equal(r.cases.length, 5);
    for (const c of r.cases) assert.ok(c.medianUs > 0);
    assert.match(out.markdown, /median µs/);
  });
});
