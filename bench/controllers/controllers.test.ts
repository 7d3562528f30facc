// Smoke runs of the controllers scenario at a tiny size: the figures mean nothing and are never
// asserted; the paths must work and the output keep its shape — on our control plane, and on a
// server named by a kubeconfig (whose own controllers then do the work).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestControlPlane } from '../../src/server/testing/index.ts';
import type { ScenarioContext } from '../lib/scenario.ts';
import { type ControllersResults, controllersScenario } from './index.ts';

const ctx = (over: Partial<ScenarioContext> = {}): ScenarioContext => ({
  backends: ['sqlite'],
  quick: true,
  protocol: 'http1',
  encoding: 'json',
  log: () => {},
  ...over,
});

const ROWS = [
  /\| owner of 50 deleted \(Background\): dependents gone +\|/,
  /\| namespace of 50 deleted: empty +\|/,
  /\| namespace of 50 deleted: namespace gone +\|/,
  // The quick run's few objects can leave the heap smaller after than before (a collection between
  // the samples): the figure is noise there, so only its shape is read, sign included.
  /\| informer heap per cached object \(JSON\) +\| +-?[\d.]+ KiB \([^)]*\); -?[\d.]+× the object \|/,
  /\| informer heap per cached object \(protobuf\) +\|/,
];

// A guard against a hang, not a measure: on a busy machine the quick run takes several times longer.
describe('controllers bench scenario (quick)', { timeout: 600_000 }, () => {
  it('runs on our control plane and reports deletions, informer and manager memory', async () => {
    const out = await controllersScenario.run(ctx());
    assert.match(out.markdown, /^\| target +\| figure +\| +value \| target +\| met +\|/);
    for (const row of ROWS) assert.match(out.markdown, row);
    assert.match(out.markdown, /\| controller manager heap per cached ConfigMap +\|/);
    assert.match(out.markdown, /garbage collector: (controller manager|API server)/);
    assert.match(out.markdown, /Load average/);
    const r = out.results as ControllersResults;
    assert.equal(r.targets.length, 1);
    const [t] = r.targets;
    assert.equal(t.label, 'control plane (sqlite)');
    for (const c of [...t.owner, ...t.namespace]) {
      assert.equal(c.deleted, c.objects, 'every object deleted');
      assert.equal(typeof c.emptiedMs, 'number');
    }
    assert.equal(typeof t.namespace[0].goneMs, 'number');
    assert.deepEqual(
      t.informer.map((m) => m.encoding),
      ['json', 'protobuf'],
    );
    assert.ok(t.informer.every((m) => m.objects >= 50));
    assert.ok(t.manager !== undefined, 'manager measured');
    assert.ok(t.manager.controllers.length > 0);
    assert.ok(!t.manager.controllers.includes('bench-cache-probe'));
  });

  it('drives a server named by a kubeconfig, without our manager', async () => {
    // That server's own controllers do the work (a bare API server would leave every case to time out).
    const api = await startTestControlPlane();
    try {
      const out = await controllersScenario.run(ctx({ kubeconfig: api.server.adminConfigPath }));
      for (const row of ROWS) assert.match(out.markdown, row);
      assert.match(out.markdown, /controller manager memory not measured/);
      const r = out.results as ControllersResults;
      assert.equal(r.targets[0].manager, undefined);
      assert.match(r.targets[0].runners.garbageCollector, /--kubeconfig/);
    } finally {
      await api.stop();
    }
  });
});
