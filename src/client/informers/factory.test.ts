// The shared informer factory: one informer per resource and options, started together (and
// later ones as they are asked for), synced together, stopped together; and the controller
// manager's resync rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeCluster } from '../testing/fake-cluster.ts';
import { SharedInformerFactory } from './factory.ts';
import { resyncPeriodFromMin } from './resync.ts';

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const LEASES = { group: 'coordination.example', version: 'v1', resource: 'leases' };

describe('SharedInformerFactory', () => {
  it('shares one informer per resource and options', () => {
    const f = new SharedInformerFactory(new FakeCluster());
    assert.equal(f.forResource(CM), f.forResource(CM));
    assert.notEqual(f.forResource(CM), f.forResource(CM, { namespace: 'a' }));
    assert.notEqual(f.forResource(CM), f.forResource(CM, { labelSelector: 'x=y' }));
    assert.notEqual(f.forResource(CM), f.forResource(LEASES));
  });

  it('starts, syncs and stops every informer, including those asked for after start', async () => {
    const cluster = new FakeCluster();
    await cluster.resource(CM, 'a').create({ metadata: { name: 'x' } });
    await cluster.resource(LEASES, 'a').create({ metadata: { name: 'l' } });
    const f = new SharedInformerFactory(cluster, { defaultResyncMs: 0 });
    const cms = f.informerFor(CM);
    f.start();
    const leases = f.informerFor(LEASES, { namespace: 'a' });
    assert.equal(leases.hasStarted(), true);
    await f.waitForSync();
    assert.equal(cms.lister.get('a/x')?.metadata?.name, 'x');
    assert.equal(leases.lister.get('a/l')?.metadata?.name, 'l');
    f.stop();
    await f.whenStopped();
    assert.equal(cluster.openWatches(), 0);
    const late = f.informerFor(CM, { namespace: 'late' });
    assert.equal(late.isStopped(), true);
    await assert.rejects(late.waitForSync(), /stopped/);
  });

  it('resyncs between MinResyncPeriod and twice it', () => {
    assert.equal(
      resyncPeriodFromMin(12 * 3600_000, () => 0),
      12 * 3600_000,
    );
    assert.equal(
      resyncPeriodFromMin(1000, () => 0.5),
      1500,
    );
    assert.ok(resyncPeriodFromMin(1000, () => 0.999999) < 2000);
  });
});
