// Profiling helper for the rollout scenario's create phase (not a scenario): starts the same plane
// as `bench/run.ts rollout` (API server and simulated nodes here, controller manager in a child),
// records a CPU profile of this process from the Deployment's create until its last Pod is ADDED,
// and prints Pods per second and how many Pods were ADDED in each 100 ms, so that stalls between
// the ReplicaSet controller's batches show. The controller manager's child is profiled over the
// same span, into `<out>.manager.cpuprofile`.
// It also prints the CPU time this process (API server, nodes, scheduler) and the manager used per
// Pod, a figure the machine's other load moves much less than the rate. With `none` for the
// output, nothing is profiled (the profiler's own cost is then out of the figures).
// With `warm`, one whole rollout run (create and image change, as the scenario's runs) comes first,
// so that the measured create meets a warmed-up process as the scenario's later runs do.
// Usage: npx tsx bench/workloads/profile-create.ts [replicas] [nodes] [out.cpuprofile|none] [warm]

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { openRolloutPlane } from './plane.ts';
import { DEPLOYMENTS, NAMESPACES, PODS, runRollout } from './rollout.ts';

const replicas = Number(process.argv[2] ?? 1000);
const nodes = Number(process.argv[3] ?? 50);
const out = process.argv[4] ?? '/tmp/create.cpuprofile';

const post = <T>(s: Session, method: string, params?: object) =>
  new Promise<T>((resolve, reject) =>
    s.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))),
  );

const plane = await openRolloutPlane('sqlite', undefined, nodes);
try {
  // PROFILE_IDLE_MS: a pause after start, to tell startup's own work from a cold process's.
  await new Promise((r) => setTimeout(r, Number(process.env.PROFILE_IDLE_MS ?? 0)));
  if (process.argv[5] === 'warm') {
    const warm = await runRollout(plane.client, plane.counters, {
      namespace: `warm-${Date.now().toString(36)}`,
      replicas,
      timeoutMs: 600_000,
      log: (m) => console.log(`warm-up: ${m}`),
    });
    console.log(`warm-up: ${warm.podsPerSecond.toFixed(0)} Pods/s`);
  }
  const namespace = `prof-${Date.now().toString(36)}`;
  await plane.client
    .resource(NAMESPACES)
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const pods = plane.client.resource(PODS, namespace);
  const watch = await pods.watch({ resourceVersion: '0' });
  const profiling = out !== 'none';
  const session = new Session();
  if (profiling) {
    session.connect();
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
    await post(session, 'Profiler.start');
    await plane.profileManager?.({ profile: 'start' });
  }
  const managerCpu0 = (await plane.counters.managerCpu()) ?? 0;
  const cpu0 = process.cpuUsage();
  const requests0 = plane.counters.requests() ?? 0;
  const t0 = performance.now();
  const labels = { app: 'rollout' };
  await plane.client.resource(DEPLOYMENTS, namespace).create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'rollout', labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'web', image: 'registry.invalid/web:1' }] },
      },
    },
  });
  const buckets: number[] = [];
  let added = 0;
  for await (const ev of watch) {
    if (ev.type !== 'ADDED') continue;
    const b = Math.floor((performance.now() - t0) / 100);
    buckets[b] = (buckets[b] ?? 0) + 1;
    if (++added === replicas) break;
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const managerCpu = ((await plane.counters.managerCpu()) ?? 0) - managerCpu0;
  watch.stop();
  if (profiling) {
    const { profile } = await post<{ profile: unknown }>(session, 'Profiler.stop');
    writeFileSync(out, JSON.stringify(profile));
    await plane.profileManager?.({
      profile: 'stop',
      path: out.replace(/\.cpuprofile$/, '.manager.cpuprofile'),
    });
    session.disconnect();
  }
  console.log(`${replicas} Pods in ${ms.toFixed(0)} ms: ${((replicas * 1000) / ms).toFixed(0)} Pods/s`);
  const perPod = (us: number) => (us / 1000 / replicas).toFixed(2);
  console.log(
    `CPU per Pod: server process ${perPod(cpu.user + cpu.system)} ms, manager ${perPod(managerCpu)} ms`,
  );
  console.log(`requests: ${(plane.counters.requests() ?? 0) - requests0}`);
  console.log(`ADDED per 100 ms: ${Array.from(buckets, (n) => n ?? 0).join(' ')}`);
  if (profiling) console.log(`profile: ${out}`);
} finally {
  await plane.stop();
}
