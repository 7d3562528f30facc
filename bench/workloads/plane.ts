// What the rollout scenario drives: our API server in this process with simulated nodes (and
// their scheduler) beside it, and the controller manager in a child process of its own, so that
// its CPU time is read apart; or any server a kubeconfig names, whose own controllers and nodes
// do the work (then no request count or manager CPU is reported).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../../src/client/api.ts';
import { restOptionsFromPlatconfig } from '../../src/client/config.ts';
import { RestClient } from '../../src/client/rest-client.ts';
import { LOOPBACK_QPS } from '../../src/cmd/control-plane.ts';
import { namingProfile } from '../../src/naming/profile.ts';
import { startSimulatedNodes } from '../../src/nodeagent/index.ts';
import { startServer } from '../../src/server/server.ts';
import { Child } from '../controllers/child.ts';
import type { BackendName } from '../lib/scenario.ts';
import type { CpuSample, ProfileRequest, RolloutManagerStart } from './manager-main.ts';
import type { Counters } from './rollout.ts';

export interface RolloutPlane {
  label: string;
  client: ApiClient;
  counters: Counters;
  /** Starts or stops a CPU profile of the controller manager's process, when it is ours. */
  profileManager?: (req: ProfileRequest) => Promise<void>;
  stop(): Promise<void>;
}

export async function openRolloutPlane(
  backend: BackendName,
  kubeconfig: string | undefined,
  nodes: number,
): Promise<RolloutPlane> {
  if (kubeconfig !== undefined) {
    const client = new RestClient({ ...restOptionsFromPlatconfig(kubeconfig), qps: LOOPBACK_QPS });
    return {
      label: `server of ${kubeconfig}`,
      client,
      counters: { requests: () => undefined, managerCpu: async () => undefined },
      stop: async () => client.close(),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-rollout-'));
  const cleanups: (() => Promise<void>)[] = [async () => rmSync(dir, { recursive: true, force: true })];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c();
  };
  try {
    let etcdServers: string[] | undefined;
    if (backend === 'etcd3') {
      const { startEtcd } = await import('../../src/storage/testing/etcd-server.ts');
      const etcd = await startEtcd();
      cleanups.push(() => etcd.stop());
      etcdServers = [etcd.endpoint];
    }
    const server = await startServer({
      dataDir: dir,
      securePort: 0,
      ...(etcdServers === undefined ? {} : { storageBackend: 'etcd3', etcdServers }),
    });
    cleanups.push(() => server.stop());
    await server.ready;
    const manager = Child.start(new URL('./manager-main.ts', import.meta.url));
    cleanups.push(() => manager.stop());
    await manager.ask<{ controllers: string[] }>({
      configPath: server.adminConfigPath,
    } satisfies RolloutManagerStart);
    const profile = namingProfile('spec');
    const { credentials: _admin, ...connection } = restOptionsFromPlatconfig(server.adminConfigPath, {
      profile,
    });
    const simulated = await startSimulatedNodes({
      count: nodes,
      profile,
      connection: { ...connection, qps: LOOPBACK_QPS },
      clientCA: {
        certPem: readFileSync(join(dir, 'ca.crt'), 'utf8'),
        keyPem: readFileSync(join(dir, 'ca.key'), 'utf8'),
      },
    });
    cleanups.push(() => simulated.stop());
    const client = new RestClient({
      ...restOptionsFromPlatconfig(server.adminConfigPath),
      qps: LOOPBACK_QPS,
    });
    cleanups.push(async () => client.close());
    return {
      label: `control plane (${backend}), ${nodes} simulated nodes`,
      client,
      counters: {
        requests: () => server.connectionStats().requests,
        managerCpu: async () => {
          const s = await manager.ask<CpuSample>('cpu');
          return s.user + s.system;
        },
      },
      profileManager: async (req) => {
        await manager.ask<unknown>(req);
      },
      stop: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
