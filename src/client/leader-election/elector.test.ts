// Leader election over the fake cluster on a fake clock: configuration rules, the Lease as written
// (holder, duration, MicroTimes, transitions), renewal, one winner among racing electors, takeover
// only after the lease expires as observed locally, release on cancel, losing the lease when
// renewals fail past renewDeadline, and the health check.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupName, namingProfile } from '../../naming/profile.ts';
import { waitUntil } from '../../server/testing/wait-for.ts';
import type { ResourceClient } from '../api.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { FakeCluster } from '../testing/fake-cluster.ts';
import { checkResourceLock, defaultIdentity, validateLeaderElection } from './config.ts';
import { LeaderElector, type LeaderElectorOptions } from './elector.ts';
import { formatMicroTime, type Lease, leaseResource } from './lease-lock.ts';

const LEASES = leaseResource(namingProfile('upstream'));
const NS = 'kube-system';
const TIMINGS = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** A client whose calls fail while `broken` is set (a leader cut off from the server). */
function breakable(inner: ResourceClient<Lease>): {
  client: ResourceClient<Lease>;
  setBroken(b: boolean): void;
} {
  let broken = false;
  const guard =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    (...a: A): Promise<R> =>
      broken
        ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
        : fn(...a);
  const client: ResourceClient<Lease> = {
    resource: inner.resource,
    namespace: inner.namespace,
    get: guard(inner.get.bind(inner)),
    list: guard(inner.list.bind(inner)),
    watch: guard(inner.watch.bind(inner)),
    create: guard(inner.create.bind(inner)),
    update: guard(inner.update.bind(inner)),
    patch: guard(inner.patch.bind(inner)),
    apply: guard(inner.apply.bind(inner)),
    delete: guard(inner.delete.bind(inner)),
    deleteCollection: guard(inner.deleteCollection.bind(inner)),
    inNamespace: (ns) => inner.inNamespace(ns),
  };
  return { client, setBroken: (b) => (broken = b) };
}

function candidate(
  cluster: FakeCluster,
  clock: FakeClock,
  identity: string,
  extra: Partial<LeaderElectorOptions> = {},
) {
  const log: string[] = [];
  let leading: AbortSignal | undefined;
  const net = breakable(cluster.resource<Lease>(LEASES, NS));
  const elector = new LeaderElector({
    leases: net.client,
    resourceName: 'example-controller-manager',
    identity,
    ...TIMINGS,
    clock,
    random: () => 0,
    callbacks: {
      onStartedLeading: (signal) => {
        leading = signal;
        log.push('started');
      },
      onStoppedLeading: () => log.push('stopped'),
      onNewLeader: (id) => log.push(`leader ${id}`),
    },
    ...extra,
  });
  const ac = new AbortController();
  const done = elector.run(ac.signal);
  return { elector, log, ac, done, net, leadingSignal: () => leading };
}

async function lease(cluster: FakeCluster): Promise<Lease> {
  return cluster.resource<Lease>(LEASES, NS).get('example-controller-manager');
}

describe('leader election configuration', () => {
  it('holds the durations, callbacks and identity to client-go rules', () => {
    const cb = { onStartedLeading: () => {}, onStoppedLeading: () => {} };
    const check =
      (t: Partial<typeof TIMINGS>, id = 'me', callbacks: object = cb) =>
      () =>
        validateLeaderElection({ ...TIMINGS, ...t }, id, callbacks);
    assert.throws(
      check({ renewDeadlineMs: 15_000 }),
      /^Error: leaseDuration must be greater than renewDeadline$/,
    );
    assert.throws(
      check({ retryPeriodMs: 9_000 }),
      /renewDeadline must be greater than retryPeriod\*JitterFactor/,
    );
    assert.throws(check({ retryPeriodMs: 0 }), /retryPeriod must be greater than zero/);
    assert.throws(check({}, ''), /Lock identity is empty/);
    assert.throws(
      check({}, 'me', { onStoppedLeading: () => {} }),
      /OnStartedLeading callback must not be nil/,
    );
    check({})();
    assert.throws(() => checkResourceLock('endpoints'), /endpoints lock is removed, migrate to leases/);
    assert.throws(
      () => checkResourceLock('configmapsleases'),
      /configmapsleases lock is removed, migrated to leases/,
    );
    assert.throws(() => checkResourceLock('nope'), /Invalid lock-type nope/);
    checkResourceLock('leases');
    assert.match(defaultIdentity(), /^.+_[0-9a-f-]{36}$/);
    assert.equal(LEASES.group, 'coordination.k8s.io');
    assert.equal(
      leaseResource(namingProfile('spec')).group,
      groupName(namingProfile('spec'), 'coordination'),
    );
  });
});

describe('LeaderElector', () => {
  it('creates the Lease, leads, and renews it keeping acquireTime', async () => {
    const clock = new FakeClock();
    const cluster = new FakeCluster({ clock });
    const a = candidate(cluster, clock, 'host-a_1');
    await waitUntil(() => a.log.includes('started'), 'a to lead');
    assert.equal(a.elector.isLeader(), true);
    const first = await lease(cluster);
    assert.deepEqual(first.spec, {
      holderIdentity: 'host-a_1',
      leaseDurationSeconds: 15,
      acquireTime: formatMicroTime(clock.now()),
      renewTime: formatMicroTime(clock.now()),
      leaseTransitions: 0,
    });
    assert.match(first.spec?.renewTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    await clock.advance(2_000);
    await waitUntil(
      async () => (await lease(cluster)).spec?.renewTime !== first.spec?.renewTime,
      'a renewal',
    );
    const renewed = await lease(cluster);
    assert.equal(renewed.spec?.acquireTime, first.spec?.acquireTime);
    assert.notEqual(renewed.metadata?.resourceVersion, first.metadata?.resourceVersion);
    a.ac.abort();
    await a.done;
    assert.deepEqual(a.log, ['leader host-a_1', 'started', 'stopped']);
    assert.equal(a.leadingSignal()?.aborted, true);
  });

  it('lets exactly one of two racing electors lead; the other follows and takes over after release', async () => {
    const clock = new FakeClock();
    const cluster = new FakeCluster({ clock });
    await cluster
      .resource<Lease>(LEASES, NS)
      .create({ metadata: { name: 'example-controller-manager' }, spec: {} });
    const a = candidate(cluster, clock, 'a', { releaseOnCancel: true });
    const b = candidate(cluster, clock, 'b', { releaseOnCancel: true });
    await waitUntil(() => a.log.includes('started') || b.log.includes('started'), 'someone to lead');
    await clock.advance(5_000);
    const [leader, follower] = a.log.includes('started') ? [a, b] : [b, a];
    assert.equal(follower.log.includes('started'), false);
    await waitUntil(
      () => follower.log.includes(`leader ${leader.elector.identity}`),
      'the follower to see the leader',
    );
    assert.equal((await lease(cluster)).spec?.leaseTransitions, 1);
    leader.ac.abort();
    await leader.done;
    const released = await lease(cluster);
    assert.equal(released.spec?.holderIdentity, '');
    assert.equal(released.spec?.leaseDurationSeconds, 1);
    assert.equal(leader.leadingSignal()?.aborted, true);
    await clock.advance(TIMINGS.retryPeriodMs * (1 + 1.2));
    await waitUntil(() => follower.log.includes('started'), 'the follower to take over');
    const taken = await lease(cluster);
    assert.equal(taken.spec?.holderIdentity, follower.elector.identity);
    assert.equal(taken.spec?.leaseTransitions, 2);
    follower.ac.abort();
    await follower.done;
  });

  it('takes over a lease left unrenewed only once leaseDuration has passed since it last changed', async () => {
    const clock = new FakeClock();
    const cluster = new FakeCluster({ clock });
    const a = candidate(cluster, clock, 'a');
    await waitUntil(() => a.log.includes('started'), 'a to lead');
    const b = candidate(cluster, clock, 'b');
    await waitUntil(() => b.log.includes('leader a'), 'b to see a');
    // a is cut off: it cannot renew, and gives up leading once renewDeadline has passed.
    a.net.setBroken(true);
    await clock.advance(TIMINGS.renewDeadlineMs + TIMINGS.retryPeriodMs);
    await waitUntil(() => a.log.includes('stopped'), 'a to lose the lease');
    assert.equal(a.leadingSignal()?.aborted, true);
    assert.equal(b.log.includes('started'), false, 'the lease has not expired yet');
    await clock.advance(TIMINGS.leaseDurationMs);
    await waitUntil(() => b.log.includes('started'), 'b to take over');
    const l = await lease(cluster);
    assert.equal(l.spec?.holderIdentity, 'b');
    assert.equal(l.spec?.leaseTransitions, 1);
    b.ac.abort();
    await b.done;
    await a.done;
  });

  it('reports an unhealthy leader that has not renewed past leaseDuration plus the tolerance', async () => {
    const clock = new FakeClock();
    const cluster = new FakeCluster({ clock });
    const a = candidate(cluster, clock, 'a');
    await waitUntil(() => a.log.includes('started'), 'a to lead');
    a.elector.check(20_000);
    a.net.setBroken(true);
    // Stepping without letting the loops run: the elector still believes it leads.
    clock.step(TIMINGS.leaseDurationMs + 20_001);
    assert.throws(
      () => a.elector.check(20_000),
      /failed election to renew leadership on lease example-controller-manager/,
    );
    a.ac.abort();
    await a.done;
  });
});
