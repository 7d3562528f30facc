// startControlPlane: the API server and the controller manager in one process, what a newcomer
// starts. The manager still goes through the API over a loopback connection, authenticated by a
// client certificate for its own user (system:<prefix>controller-manager, signed in memory by the
// data directory's CA), so authentication, authorization and admission apply to it exactly as to a
// separate process. With `simulatedNodes`, that many simulated nodes and their scheduler join it
// (nodeagent/), each with its own client certificate from the same CA.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { restOptionsFromPlatconfig } from '../client/config.ts';
import { StaticCredentialSource } from '../client/credentials.ts';
import { defaultPlatControllerManagerConfiguration } from '../controllers/manager/config/defaults.ts';
import type {
  ControllerManagerHandle,
  ControllerManagerOptions,
} from '../controllers/manager/controller-manager.ts';
import { startControllerManager } from '../controllers/manager/controller-manager.ts';
import { CONTROLLER_FEATURE_GATE_DEFAULTS } from '../controllers/manager/feature-gates.ts';
import { loggerFor } from '../machinery/logging/index.ts';
import { componentName, namingProfile } from '../naming/profile.ts';
import { type SimulatedNodesHandle, startSimulatedNodes } from '../nodeagent/simulated-nodes.ts';
import type { ServerOptions } from '../server/options.ts';
import { componentClientCertificate } from '../server/pki/component-client.ts';
import { type ServerHandle, startServer } from '../server/server.ts';

export interface ControlPlaneOptions {
  server: ServerOptions;
  /**
   * The manager's options; its connection is made here. useServiceAccountCredentials defaults to
   * true, and without a configuration the client's rate limit is off (LOOPBACK_QPS).
   */
  controllerManager?: Omit<ControllerManagerOptions, 'platconfig' | 'connection' | 'master' | 'profile'>;
  /** Simulated nodes to register, with the scheduler that binds Pods to them (default 0: none). */
  simulatedNodes?: number;
}

export interface ControlPlaneHandle {
  server: ServerHandle;
  controllerManager: ControllerManagerHandle;
  /** The simulated nodes, when asked for. */
  simulatedNodes: SimulatedNodesHandle | undefined;
  /** The API server's address. */
  url: string;
  adminConfigPath: string;
  /** Stops the simulated nodes, then the manager, then the server. */
  stop(): Promise<void>;
}

/**
 * The manager's client-side rate limit in one process: none (a negative qps). Upstream's 20 per
 * second protects a shared API server from a remote manager; over loopback in one process the
 * server's own in-flight limits do that, and 10,000 dependents to collect would take 500 s.
 */
export const LOOPBACK_QPS = -1;

const log = loggerFor('cmd/control-plane');

/** An error reporter that logs each distinct failure of a simulated node once. */
function onceEach(): (err: unknown, who: string) => void {
  const seen = new Set<string>();
  return (err, who) => {
    const text = `${who}: ${err instanceof Error ? err.message : String(err)}`;
    if (seen.size < 1000 && !seen.has(text)) {
      seen.add(text);
      log.error(err, 'Simulated node failed', { node: who });
    }
  };
}

function managerGates(serverGates: Readonly<Record<string, boolean>> | undefined): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(serverGates ?? {}).filter(([name]) =>
      Object.hasOwn(CONTROLLER_FEATURE_GATE_DEFAULTS, name),
    ),
  );
}

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlaneHandle> {
  const profile = namingProfile(options.server.naming ?? 'spec');
  const server = await startServer(options.server);
  try {
    await server.ready;
    const own = await componentClientCertificate(
      options.server.dataDir,
      `system:${componentName(profile, 'controller-manager')}`,
    );
    const controllerManager = await startControllerManager({
      // One process needs no secure port of its own unless asked for one.
      securePort: 'none',
      ...options.controllerManager,
      config:
        options.controllerManager?.config ??
        defaultPlatControllerManagerConfiguration(
          { Generic: { ClientConnection: { qps: LOOPBACK_QPS } } },
          profile,
        ),
      // As kubeadm runs upstream's: the manager's own role only creates accounts and tokens, and
      // each controller works under its own system:controller:* role.
      useServiceAccountCredentials: options.controllerManager?.useServiceAccountCredentials ?? true,
      // One --feature-gates for both: the manager takes the gates it knows.
      featureGates: options.controllerManager?.featureGates ?? managerGates(options.server.featureGates),
      profile,
      connection: {
        // The server's address and the trust the admin configuration carries (a serving
        // certificate from --tls-cert-file included); the manager's own certificate.
        ...restOptionsFromPlatconfig(server.adminConfigPath, { profile }),
        credentials: new StaticCredentialSource({
          clientCertificatePem: own.certPem,
          clientKeyPem: own.keyPem,
        }),
      },
      clientCA: options.controllerManager?.clientCA ?? own.caPem,
    });
    let nodes: SimulatedNodesHandle | undefined;
    if ((options.simulatedNodes ?? 0) > 0) {
      try {
        const { credentials: _admin, ...connection } = restOptionsFromPlatconfig(server.adminConfigPath, {
          profile,
        });
        nodes = await startSimulatedNodes({
          count: options.simulatedNodes ?? 0,
          profile,
          connection: { ...connection, qps: LOOPBACK_QPS },
          clientCA: {
            certPem: readFileSync(join(options.server.dataDir, 'ca.crt'), 'utf8'),
            keyPem: readFileSync(join(options.server.dataDir, 'ca.key'), 'utf8'),
          },
          // The API stays up whatever the nodes meet; they keep retrying, and say what failed once.
          waitForRegistration: false,
          onError: onceEach(),
        });
      } catch (err) {
        await controllerManager.stop();
        throw err;
      }
    }
    let stopping: Promise<void> | undefined;
    return {
      server,
      controllerManager,
      simulatedNodes: nodes,
      url: server.url,
      adminConfigPath: server.adminConfigPath,
      stop() {
        stopping ??= (async () => {
          await nodes?.stop();
          await controllerManager.stop();
          await server.stop();
        })();
        return stopping;
      },
    };
  } catch (err) {
    await server.stop();
    throw err;
  }
}
