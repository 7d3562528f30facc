// The timed rollout: a Deployment of `replicas` created and awaited until `kubectl rollout status`
// would say it is rolled out, then its image changed and awaited again. One watch on the
// Deployment decides completion (kubectl's rule: the controller observed the generation, every
// replica is updated, no old replica is left, every updated one is available); one watch on the
// namespace's Pods times their creation.

import type { ApiClient, WatchStream } from '../../src/client/api.ts';
import type { ApiObject } from '../../src/machinery/object.ts';

export const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };
export const PODS = { group: '', version: 'v1', resource: 'pods' };
export const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };

export interface Counters {
  /** API requests the server has received so far; undefined when the server is not ours. */
  requests(): number | undefined;
  /** CPU microseconds the controller manager has used so far; undefined when it is not ours. */
  managerCpu(): Promise<number | undefined>;
}

export interface PhaseResult {
  /** From the write until the rollout is complete. */
  ms: number;
  /** API requests the server answered meanwhile (every client: manager, nodes, scheduler, bench). */
  requests?: number;
  /** CPU time of the controller manager meanwhile. */
  managerCpuMs?: number;
}

export interface RolloutResult {
  replicas: number;
  create: PhaseResult;
  /** Pods created per second from the Deployment's create to its last Pod's ADDED event. */
  podsPerSecond: number;
  imageChange: PhaseResult;
}

interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  availableReplicas?: number;
}

function rolledOut(d: ApiObject, replicas: number): boolean {
  const s = (d.status ?? {}) as DeploymentStatus;
  return (
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) &&
    (s.updatedReplicas ?? 0) === replicas &&
    (s.replicas ?? 0) === replicas &&
    (s.availableReplicas ?? 0) === replicas
  );
}

function deployment(name: string, replicas: number, image: string): ApiObject {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'web', image }] } },
    },
  };
}

/** Resolves with the first Deployment state that is rolled out; rejects after `timeoutMs`. */
async function untilRolledOut(
  watch: WatchStream,
  replicas: number,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const timer = setTimeout(() => watch.stop(), timeoutMs);
  try {
    for await (const ev of watch) {
      if (ev.type === 'ERROR') throw new Error(`${what}: watch error ${JSON.stringify(ev.object)}`);
      if ((ev.type === 'ADDED' || ev.type === 'MODIFIED') && rolledOut(ev.object, replicas)) return;
    }
    throw new Error(`${what}: not rolled out within ${timeoutMs} ms`);
  } finally {
    clearTimeout(timer);
    watch.stop();
  }
}

async function phase(counters: Counters, run: () => Promise<void>): Promise<PhaseResult> {
  const requests = counters.requests();
  const cpu = await counters.managerCpu();
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const requestsAfter = counters.requests();
  const cpuAfter = await counters.managerCpu();
  return {
    ms,
    requests: requests === undefined || requestsAfter === undefined ? undefined : requestsAfter - requests,
    managerCpuMs: cpu === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpu) / 1000,
  };
}

export async function runRollout(
  client: ApiClient,
  counters: Counters,
  opts: { namespace: string; replicas: number; timeoutMs: number; log: (m: string) => void },
): Promise<RolloutResult> {
  const { namespace, replicas, timeoutMs, log } = opts;
  await client
    .resource(NAMESPACES)
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const deployments = client.resource(DEPLOYMENTS, namespace);
  const pods = client.resource(PODS, namespace);
  const name = 'rollout';

  let created = 0;
  let createdAt = 0;
  let lastPodAt = 0;
  const podWatch = await pods.watch({ resourceVersion: '0' });
  const counting = (async () => {
    for await (const ev of podWatch) {
      if (ev.type !== 'ADDED') continue;
      created++;
      if (created === replicas) lastPodAt = performance.now();
    }
  })();

  log(`creating a Deployment of ${replicas} replicas`);
  const create = await phase(counters, async () => {
    const list = await deployments.list();
    const watch = await deployments.watch({
      resourceVersion: list.metadata.resourceVersion,
      fieldSelector: `metadata.name=${name}`,
    });
    createdAt = performance.now();
    await deployments.create(deployment(name, replicas, 'registry.invalid/web:1'));
    await untilRolledOut(watch, replicas, timeoutMs, 'create');
  });
  podWatch.stop();
  await counting;
  const podsPerSecond = lastPodAt > 0 ? replicas / ((lastPodAt - createdAt) / 1000) : 0;

  log('changing the image');
  const imageChange = await phase(counters, async () => {
    const current = await deployments.get(name);
    const watch = await deployments.watch({
      resourceVersion: current.metadata?.resourceVersion,
      fieldSelector: `metadata.name=${name}`,
    });
    await deployments.patch(name, 'strategic', {
      spec: { template: { spec: { containers: [{ name: 'web', image: 'registry.invalid/web:2' }] } } },
    });
    await untilRolledOut(watch, replicas, timeoutMs, 'image change');
  });
  return { replicas, create, podsPerSecond, imageChange };
}
