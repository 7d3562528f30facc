// What an elector reports to its metrics, on the fake cluster and clock: not leading as soon as it
// is made, leading once it holds the lease, a renewal that had to re-read the lease (slow path),
// and not leading again once it stops.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { FakeCluster } from '../testing/fake-cluster.ts';
import { LeaderElector } from './elector.ts';
import { type Lease, leaseResource } from './lease-lock.ts';
import type { LeaderMetrics } from './metrics.ts';

const LEASES = leaseResource(namingProfile('upstream'));
const NS = 'kube-system';

describe('leader elector metrics', () => {
  it('reports off when made, on when leading, slow-path renewals, and off when stopped', async () => {
    const clock = new FakeClock();
    const cluster = new FakeCluster({ clock });
    const events: string[] = [];
    const metrics: LeaderMetrics = {
      on: (n) => events.push(`on ${n}`),
      off: (n) => events.push(`off ${n}`),
      slowpathExercised: (n) => events.push(`slowpath ${n}`),
    };
    let leading = false;
    const elector = new LeaderElector({
      leases: cluster.resource<Lease>(LEASES, NS),
      resourceName: 'example-controller-manager',
      identity: 'a',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      clock,
      random: () => 0,
      metrics,
      callbacks: {
        onStartedLeading: () => {
          leading = true;
        },
        onStoppedLeading: () => undefined,
      },
    });
    assert.deepEqual(events, ['off example-controller-manager']);
    const ac = new AbortController();
    const done = elector.run(ac.signal);
    await waitUntil(() => leading, 'a to lead');
    assert.deepEqual(events, ['off example-controller-manager', 'on example-controller-manager']);

    // Someone else touches the lease (not its holder): the leader's optimistic update conflicts,
    // and it renews by reading the lease again.
    const leases = cluster.resource<Lease>(LEASES, NS);
    const current = await leases.get('example-controller-manager');
    await leases.update({ ...current, metadata: { ...current.metadata, labels: { touched: 'yes' } } });
    await clock.advance(2_000);
    await waitUntil(() => events.includes('slowpath example-controller-manager'), 'a slow-path renewal');
    ac.abort();
    await done;
    assert.deepEqual(events, [
      'off example-controller-manager',
      'on example-controller-manager',
      'slowpath example-controller-manager',
      'off example-controller-manager',
    ]);
  });
});
