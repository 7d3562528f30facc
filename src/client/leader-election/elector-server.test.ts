// Two leader electors, each with its own REST client, against a server started in-process: one
// leads; when it stops without releasing, the other leads once the lease has expired (within
// leaseDuration plus retryPeriod of its last renewal, waited for as a condition). One elector uses
// the profile's coordination group and the other upstream's name for it, which the server serves
// as an alias of the same Leases.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { namingProfile } from '../../naming/profile.ts';
import { startTestApiServer, type TestApiServer, waitUntil } from '../../server/testing/index.ts';
import { restOptionsFromPlatconfig } from '../config.ts';
import { RestClient } from '../rest-client.ts';
import { LeaderElector } from './elector.ts';
import { type Lease, leaseResource } from './lease-lock.ts';

const TIMINGS = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };

describe('leader election against a server', () => {
  let t: TestApiServer;
  const clients: RestClient[] = [];
  before(async () => {
    t = await startTestApiServer();
  });
  after(async () => {
    for (const c of clients) c.close();
    await t?.stop();
  });

  function candidate(identity: string, profileName: 'spec' | 'upstream', releaseOnCancel = false) {
    const client = new RestClient(restOptionsFromPlatconfig(t.server.adminConfigPath));
    clients.push(client);
    const state = { leading: false, stopped: false, leaders: [] as string[] };
    const errors: unknown[] = [];
    const elector = new LeaderElector({
      leases: client.resource<Lease>(leaseResource(namingProfile(profileName)), 'default'),
      resourceName: 'failover-test',
      identity,
      ...TIMINGS,
      releaseOnCancel,
      callbacks: {
        onStartedLeading: () => {
          state.leading = true;
        },
        onStoppedLeading: () => {
          state.leading = false;
          state.stopped = true;
        },
        onNewLeader: (id) => state.leaders.push(id),
      },
      onError: (e) => errors.push(e),
    });
    const ac = new AbortController();
    const done = elector.run(ac.signal);
    return { elector, state, ac, done, errors };
  }

  it('fails over to the other elector after the leader stops', async () => {
    const a = candidate('host-a_1', 'spec');
    await waitUntil(() => a.state.leading, 'a to lead');
    const b = candidate('host-b_2', 'upstream');
    await waitUntil(() => b.state.leaders.includes('host-a_1'), 'b to observe a');
    assert.equal(b.state.leading, false);

    a.ac.abort();
    await a.done;
    assert.equal(a.state.stopped, true);
    await waitUntil(() => b.state.leading, 'b to take over');

    const lease = await clients[0]
      .resource<Lease>(leaseResource(namingProfile('spec')), 'default')
      .get('failover-test');
    assert.equal(lease.spec?.holderIdentity, 'host-b_2');
    assert.equal(lease.spec?.leaseDurationSeconds, 3);
    assert.equal(lease.spec?.leaseTransitions, 1);
    assert.match(lease.spec?.renewTime ?? '', /\.\d{6}Z$/);
    b.ac.abort();
    await b.done;
    assert.deepEqual([...a.errors, ...b.errors], []);
  });

  it('hands over at once when the leader releases on cancel', async () => {
    const a = candidate('host-a_3', 'spec', true);
    await waitUntil(() => a.state.leading, 'a to lead');
    const b = candidate('host-b_4', 'spec', true);
    await waitUntil(() => b.state.leaders.includes('host-a_3'), 'b to observe a');
    a.ac.abort();
    await a.done;
    const released = await clients[0]
      .resource<Lease>(leaseResource(namingProfile('spec')), 'default')
      .get('failover-test');
    // b may already have taken it; if not, a left it free.
    assert.ok(released.spec?.holderIdentity === '' || released.spec?.holderIdentity === 'host-b_4');
    await waitUntil(() => b.state.leading, 'b to take over');
    b.ac.abort();
    await b.done;
  });
});
