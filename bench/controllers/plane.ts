// What the controllers scenario drives: our control plane (API server and controller manager in
// this process, through startControlPlane, on a fresh data directory), or any server a kubeconfig
// names (whose own controllers then do the work). It also says who ran the garbage collector and
// the namespace controller: the controller manager, or the API server's in-process copies that do
// the work until those two move into the manager.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startControlPlane } from '../../src/cmd/control-plane.ts';
import type { ControllerLogger } from '../../src/controllers/controller.ts';
import { type Endpoint, endpointFromKubeconfig } from '../api/target.ts';
import type { BackendName } from '../lib/scenario.ts';

/** The manager's names for the two controllers the timed cases exercise. */
export const GC_CONTROLLER = 'garbage-collector-controller';
export const NAMESPACE_CONTROLLER = 'namespace-controller';

export interface Plane {
  label: string;
  endpoint: Endpoint;
  /** A platconfig (kubeconfig) file for clients in child processes. */
  configPath: string;
  /** Who deletes dependents and empties namespaces, for the report. */
  runners(): { garbageCollector: string; namespace: string; managerControllers: string[] };
  /** Our manager runs here: a second manager in a child process must not take part in its election. */
  ours: boolean;
  stop(): Promise<void>;
}

/** The manager logs every controller start on stderr; the bench's own progress is enough. */
const quiet: ControllerLogger = {
  info: () => {},
  error: (msg, fields) =>
    process.stderr.write(`[manager] ${msg}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
};

export async function openPlane(backend: BackendName, kubeconfig: string | undefined): Promise<Plane> {
  if (kubeconfig !== undefined) {
    const who = 'the server’s own (--kubeconfig)';
    return {
      label: `server of ${kubeconfig}`,
      endpoint: endpointFromKubeconfig(kubeconfig),
      configPath: kubeconfig,
      runners: () => ({ garbageCollector: who, namespace: who, managerControllers: [] }),
      ours: false,
      stop: async () => {},
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-controllers-'));
  let etcd: { stop(): Promise<void>; endpoint: string } | undefined;
  if (backend === 'etcd3') {
    const { startEtcd } = await import('../../src/storage/testing/etcd-server.ts');
    etcd = await startEtcd();
  }
  try {
    const plane = await startControlPlane({
      server: {
        dataDir: dir,
        securePort: 0,
        ...(etcd === undefined ? {} : { storageBackend: 'etcd3', etcdServers: [etcd.endpoint] }),
      },
      controllerManager: { log: quiet },
    });
    await plane.controllerManager.leading;
    const runner = (name: string) =>
      plane.controllerManager.running().includes(name)
        ? `controller manager (${name})`
        : 'API server (in-process copy)';
    return {
      label: `control plane (${backend})`,
      endpoint: endpointFromKubeconfig(plane.adminConfigPath),
      configPath: plane.adminConfigPath,
      runners: () => ({
        garbageCollector: runner(GC_CONTROLLER),
        namespace: runner(NAMESPACE_CONTROLLER),
        managerControllers: plane.controllerManager.running(),
      }),
      ours: true,
      async stop() {
        await plane.stop();
        await etcd?.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await etcd?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
