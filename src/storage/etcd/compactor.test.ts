import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompactedError } from '../errors.ts';
import type { WatchEvent } from '../interface.ts';
import { type EtcdServer, startEtcd } from '../testing/etcd-server.ts';
import { EtcdClient } from './client.ts';
import { COMPACT_REV_KEY } from './compactor.ts';
import type { EtcdStorage } from './etcd-storage.ts';
import { openEtcdStorage } from './index.ts';

/** Polls `check` until it returns a value other than undefined, for at most `timeoutMs`. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('etcd history compaction', () => {
  let etcd: EtcdServer;
  let raw: EtcdClient;
  before(async () => {
    etcd = await startEtcd();
    raw = new EtcdClient([etcd.endpoint]);
  });
  after(async () => {
    raw.close();
    await etcd.stop();
  });

  /** compact_rev_key's version (turns taken by all replicas) and value (revision compacted to). */
  async function compactKey(): Promise<{ version: number; value: number }> {
    const res = await raw.range({ key: Buffer.from(COMPACT_REV_KEY) });
    const kv = res.kvs[0];
    return kv === undefined
      ? { version: 0, value: 0 }
      : { version: kv.version, value: Number(kv.value.toString()) };
  }

  it('compacts once per interval across replicas, keeps the last interval, and a replica takes over', async () => {
    const opts = { endpoints: [etcd.endpoint], prefix: '/compaction', compactionIntervalMs: 200 };
    const first = await openEtcdStorage(opts);
    const second = await openEtcdStorage(opts);
    const replicas: EtcdStorage[] = [first, second];
    try {
      const old = await first.create('/cm/a', { metadata: { name: 'a' }, data: { n: '0' } });
      const oldRevision = Number(old.metadata?.resourceVersion);
      // Keep writing while the compactors run, so that every interval has history to drop.
      let writing = true;
      let n = 0;
      const writer = (async () => {
        while (writing) {
          await first.guaranteedUpdate('/cm/a', ({ current }) => ({ ...current!, data: { n: String(++n) } }));
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      try {
        // The old revision is compacted away: an exact read answers Compacted (410).
        const err = await waitFor('the old revision to be compacted', async () => {
          try {
            await second.get('/cm/a', { at: { kind: 'exact', revision: oldRevision } });
            return undefined;
          } catch (e) {
            return e;
          }
        });
        assert.ok(err instanceof CompactedError, String(err));
        assert.ok(err.compactRevision > oldRevision, `compacted through ${err.compactRevision}`);

        // One turn per interval, however many replicas: over a stretch in which each replica ran at
        // least five rounds, the key was written about as often as the busier replica ran, not as
        // often as both together (which is what replicas compacting on their own clocks would do).
        const rounds = () => replicas.map((r) => r.compaction!.rounds);
        const start = { version: (await compactKey()).version, rounds: rounds() };
        await waitFor('five rounds on each replica', async () =>
          rounds().every((x, i) => x >= start.rounds[i]! + 5) ? true : undefined,
        );
        const end = { version: (await compactKey()).version, rounds: rounds() };
        const ran = end.rounds.map((x, i) => x - start.rounds[i]!);
        const turns = end.version - start.version;
        assert.ok(turns >= 1, 'the key was written');
        assert.ok(turns <= Math.max(...ran) + 2, `${turns} turns while the replicas ran ${ran} rounds`);
      } finally {
        writing = false;
        await writer;
      }
      // Only the replica whose turn it was compacts.
      const { version } = await compactKey();
      const compactions = replicas.reduce((sum, r) => sum + r.compaction!.compactions, 0);
      assert.ok(compactions >= 1);
      assert.ok(compactions <= version, `${compactions} compactions in ${version} turns`);
      // The recorded revision is what the winner compacted to; every replica learns it.
      await waitFor('both replicas to know the recorded compaction', async () => {
        const { value } = await compactKey();
        return replicas.every((r) => r.compaction!.compactRevision >= value) ? true : undefined;
      });

      // The replica that has been taking the turns stops: the other one takes over.
      const [leader, other] =
        first.compaction!.compactions >= second.compaction!.compactions ? [first, second] : [second, first];
      const otherBefore = other.compaction!.compactions;
      await leader.close();
      await other.create('/cm/b', { metadata: { name: 'b' } });
      await waitFor('the other replica to compact', async () => {
        await other.guaranteedUpdate('/cm/b', ({ current }) => ({
          ...current!,
          data: { t: String(Date.now()) },
        }));
        return other.compaction!.compactions > otherBefore ? true : undefined;
      });
    } finally {
      for (const r of replicas) await r.close();
    }
  });

  it('a watch from a compacted revision ends with Compacted, naming the compact revision', async () => {
    const store = await openEtcdStorage({
      endpoints: [etcd.endpoint],
      prefix: '/compacted-watch',
      compactionIntervalMs: 100,
    });
    try {
      const created = await store.create('/cm/w', { metadata: { name: 'w' } });
      const from = Number(created.metadata?.resourceVersion);
      const compactedThrough = await waitFor('a compaction past the object', async () => {
        await store.guaranteedUpdate('/cm/w', ({ current }) => ({
          ...current!,
          data: { t: String(Date.now()) },
        }));
        const through = store.compaction!.compactRevision;
        return through > from ? through : undefined;
      });
      const events: WatchEvent[] = [];
      for await (const ev of store.watch('/cm/', { revision: from - 1 })) {
        events.push(ev);
        if (ev.type === 'ERROR') break;
      }
      const last = events.at(-1);
      assert.equal(last?.type, 'ERROR');
      assert.ok(last?.error instanceof CompactedError, String(last?.error));
      assert.ok(last.error.compactRevision >= compactedThrough);
      assert.equal(events.length, 1, 'nothing from the compacted history is replayed');
    } finally {
      await store.close();
    }
  });

  it('compacts nothing when the interval is 0', async () => {
    const store = await openEtcdStorage({
      endpoints: [etcd.endpoint],
      prefix: '/never',
      compactionIntervalMs: 0,
    });
    try {
      assert.equal(store.compaction, undefined);
    } finally {
      await store.close();
    }
  });
});
