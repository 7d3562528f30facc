// Child process of the manager memory measure (started by manager-memory.ts with --expose-gc): the
// controller manager as plat-controller-manager runs it (startControllerManager with a platconfig
// and upstream's default configuration), every system controller, no leader election (the control
// plane's own manager holds the lease), no secure port. One more descriptor, started last, keeps the
// manager's shared informer factory so that the parent can ask how many ConfigMaps the manager has
// cached: the ConfigMap informer it reads is the one the controllers share, not a new one.

import type { InformerFactory } from '../../src/client/api.ts';
import type { ControllerDescriptor, ControllerLogger } from '../../src/controllers/controller.ts';
import { CONFIG_MAPS } from '../../src/controllers/controller-support.ts';
import { defaultPlatControllerManagerConfiguration } from '../../src/controllers/manager/config/defaults.ts';
import { startControllerManager } from '../../src/controllers/manager/controller-manager.ts';
import { allControllerDescriptors } from '../../src/controllers/manager/descriptors.ts';
import { namingProfile } from '../../src/naming/profile.ts';
import { type MemorySample, settledMemory } from './child.ts';

export interface ManagerStartRequest {
  configPath: string;
  naming: 'spec' | 'upstream';
}

export interface ManagerReady {
  controllers: string[];
}

/** `measure`: memory now, and the ConfigMaps cached (all, and those of `namespace` labelled so). */
export interface ManagerMeasureRequest {
  namespace: string;
  label: { key: string; value: string };
}

export interface ManagerMeasureReply {
  memory: MemorySample;
  cachedConfigMaps: number;
  cachedInNamespace: number;
}

let informers: InformerFactory | undefined;
const probe: ControllerDescriptor = {
  name: 'bench-cache-probe',
  enabledByDefault: true,
  serviceAccountName: 'bench-cache-probe',
  rootCredentials: true,
  async start(ctx) {
    informers = ctx.informers;
    return { stop: async () => {} };
  },
};

const log: ControllerLogger = {
  info: () => {},
  error: (msg, fields) =>
    process.stderr.write(`[child manager] ${msg}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
};

async function start(req: ManagerStartRequest) {
  const profile = namingProfile(req.naming);
  const config = defaultPlatControllerManagerConfiguration({}, profile);
  config.Generic.LeaderElection.leaderElect = false;
  const manager = await startControllerManager({
    platconfig: req.configPath,
    config,
    profile,
    securePort: 'none',
    descriptors: [...allControllerDescriptors(), probe],
    log,
  });
  await manager.leading;
  if (informers === undefined) throw new Error('the probe was not started');
  // Only the ConfigMap informer: another (Pods on a server without them) may never sync.
  await informers.forResource(CONFIG_MAPS).waitForSync();
  return manager;
}

process.once('message', (req: ManagerStartRequest) => {
  start(req).then(
    (manager) => {
      const controllers = manager.running().filter((n) => n !== probe.name);
      process.on('message', (m: ManagerMeasureRequest) => {
        settledMemory().then(
          (memory) => {
            const lister = informers!.forResource(CONFIG_MAPS).lister;
            const reply: ManagerMeasureReply = {
              memory,
              cachedConfigMaps: lister.keys().length,
              cachedInNamespace: lister
                .list(m.namespace)
                .filter((o) => o.metadata?.labels?.[m.label.key] === m.label.value).length,
            };
            process.send?.({ reply });
          },
          (err: Error) => process.send?.({ error: err.message }),
        );
      });
      process.once('SIGTERM', () => {
        manager.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
      process.send?.({ reply: { controllers } satisfies ManagerReady });
    },
    (err: Error) => process.send?.({ error: err.stack ?? err.message }, () => process.exit(1)),
  );
});
