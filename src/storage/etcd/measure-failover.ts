// Measures what an etcd leader's death costs writers: starts a 3-member cluster, runs writers
// through EtcdStorage, SIGKILLs the leader, and reports the time from the kill to the first write
// that succeeds and the failures in the seconds after. Run by hand:
//   npx tsx src/storage/etcd/measure-failover.ts [lanes] [secondsAfterKill]

import { openEtcdStorage } from './index.ts';
import { startEtcdCluster } from './test-cluster.ts';

interface Outcome {
  start: number;
  end: number;
  error?: string;
}

const lanes = Number(process.argv[2] ?? 8);
const after = Number(process.argv[3] ?? 20) * 1000;

const cluster = await startEtcdCluster(3);
process.on('exit', () => {
  for (const m of cluster.members) m.kill();
});
const store = await openEtcdStorage({ endpoints: cluster.endpoints, prefix: '/measure' });
const outcomes: Outcome[] = [];
let stopAt = Number.POSITIVE_INFINITY;
let n = 0;
const lane = async (id: number) => {
  while (performance.now() < stopAt) {
    const start = performance.now();
    const key = `/k/${id}-${n++}`;
    try {
      await store.create(key, { metadata: { name: key } });
      outcomes.push({ start, end: performance.now() });
    } catch (err) {
      outcomes.push({ start, end: performance.now(), error: (err as Error).message });
    }
  }
};
const running = Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)));
await new Promise((r) => setTimeout(r, 2000));
const leader = await cluster.leader();
const killedAt = performance.now();
await leader.kill();
stopAt = killedAt + after;
await running;

const post = outcomes.filter((o) => o.end >= killedAt).sort((a, b) => a.end - b.end);
const firstOk = post.find((o) => o.error === undefined && o.start >= killedAt);
const failures = post.filter((o) => o.error !== undefined);
const afterFirst = firstOk === undefined ? failures : failures.filter((o) => o.end > firstOk.end);
const byMessage = new Map<string, number>();
for (const f of afterFirst) byMessage.set(f.error!, (byMessage.get(f.error!) ?? 0) + 1);
const beforeFirst = new Map<string, number>();
for (const f of failures.filter((o) => !afterFirst.includes(o)))
  beforeFirst.set(f.error!, (beforeFirst.get(f.error!) ?? 0) + 1);
const slowest = post.reduce((m, o) => Math.max(m, o.end - o.start), 0);
// Per second after the kill: writes that ended in it, and how many of them failed.
const timeline: string[] = [];
for (let s = 0; s * 1000 < after + 8000; s++) {
  const inSecond = post.filter((o) => o.end - killedAt >= s * 1000 && o.end - killedAt < (s + 1) * 1000);
  if (inSecond.length === 0) continue;
  const failed = inSecond.filter((o) => o.error !== undefined).length;
  timeline.push(`${s}s: ${inSecond.length - failed} ok, ${failed} failed`);
}
console.log(
  JSON.stringify(
    {
      lanes,
      writesAfterKill: post.length,
      firstSuccessMs: firstOk === undefined ? null : Math.round(firstOk.end - killedAt),
      failuresTotal: failures.length,
      failuresAfterFirstSuccess: afterFirst.length,
      failureWindowMs:
        afterFirst.length === 0
          ? null
          : [Math.round(afterFirst[0]!.end - killedAt), Math.round(afterFirst.at(-1)!.end - killedAt)],
      failureMessages: Object.fromEntries(byMessage),
      failureMessagesBeforeFirstSuccess: Object.fromEntries(beforeFirst),
      slowestWriteMs: Math.round(slowest),
      timeline,
    },
    null,
    2,
  ),
);
await store.close();
await cluster.stop();
