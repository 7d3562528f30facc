import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EtcdStorage } from './etcd-storage.ts';
import { openEtcdStorage } from './index.ts';
import { type EtcdCluster, startEtcdCluster } from './test-cluster.ts';

interface Outcome {
  start: number;
  end: number;
  error?: string;
}

// A leader's death must cost one election, not an outage. With the client library's defaults,
// writes resumed after the election and then, when the writes caught by the leader's death timed
// out (etcd answers "request timed out" after 7 s), every request failed for 5 s ("circuit breaker
// is open"), and a create retried blindly answered AlreadyExists for an object it had created.
describe('etcd leader failover', () => {
  let cluster: EtcdCluster;
  let store: EtcdStorage;
  before(async () => {
    cluster = await startEtcdCluster(3);
    store = await openEtcdStorage({ endpoints: cluster.endpoints, prefix: '/failover' });
  });
  after(async () => {
    await store?.close();
    await cluster?.stop();
  });

  it('writes resume after the election and keep succeeding', async () => {
    // Enough writers that many are caught waiting on the dead leader, as under a server's load.
    const lanes = 32;
    const outcomes: Outcome[] = [];
    const created: string[] = [];
    let killedAt = Number.POSITIVE_INFINITY;
    let firstSuccess: number | undefined;
    let stopAt = Number.POSITIVE_INFINITY;
    const lane = async (id: number) => {
      await store.create(`/counter/${id}`, { metadata: { name: `c${id}` }, data: { n: '0' } });
      for (let n = 0; performance.now() < stopAt; n++) {
        const start = performance.now();
        const key = `/item/${id}-${n}`;
        try {
          // A create and an update: both kinds of compare-guarded transaction.
          await store.create(key, { metadata: { name: `i${id}-${n}` } });
          created.push(key);
          await store.guaranteedUpdate(`/counter/${id}`, ({ current }) => ({
            ...current!,
            data: { n: String(n + 1) },
          }));
          const end = performance.now();
          outcomes.push({ start, end });
          if (start >= killedAt && firstSuccess === undefined) {
            firstSuccess = end;
            // Watch the 15 s after writes resume: the old outage came 7 s after the kill.
            stopAt = end + 15_000;
          }
        } catch (err) {
          outcomes.push({ start, end: performance.now(), error: (err as Error).message });
        }
        // Paced, so that the run is a bounded number of writes rather than a busy loop.
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const running = Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)));
    try {
      // Writes flow before the kill.
      const deadline = performance.now() + 30_000;
      while (outcomes.filter((o) => o.error === undefined).length < lanes * 2) {
        assert.ok(performance.now() < deadline, 'writes flow before the kill');
        await new Promise((r) => setTimeout(r, 50));
      }
      const leader = await cluster.leader();
      killedAt = performance.now();
      await leader.kill();
      // Writes resume within a generous bound (one election takes about a second).
      while (firstSuccess === undefined) {
        assert.ok(performance.now() < killedAt + 30_000, 'a write succeeds after the leader is killed');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      // No more writes than the window allows, and none left running past a failed assertion.
      if (firstSuccess === undefined) stopAt = 0;
      await running;
    }
    const failedAfter = outcomes.filter((o) => o.error !== undefined && o.end > firstSuccess!);
    assert.deepEqual(
      failedAfter.map((o) => `${Math.round(o.end - killedAt)} ms after the kill: ${o.error}`),
      [],
      'no write fails once writes have resumed',
    );
    // No create reported done was lost, and none was answered AlreadyExists for its own object.
    assert.ok((await store.count('/item/')) >= created.length);
    assert.deepEqual(
      outcomes.filter((o) => o.error?.includes('key exists')),
      [],
      'no create answered that its own object exists',
    );
    assert.ok(
      outcomes.filter((o) => o.start > firstSuccess!).length > lanes,
      'writes ran after the election',
    );
  });
});
