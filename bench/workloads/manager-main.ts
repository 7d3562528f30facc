// Child process of the rollout scenario: the controller manager as plat-controller-manager runs it
// (startControllerManager with a platconfig, upstream's default configuration, every default
// controller), with no leader election, no secure port and no client-side rate limit (the
// control plane's loopback default). It lives alone in its process so that the scenario can read
// its CPU time apart from the API server's and the simulated nodes'.

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { LOOPBACK_QPS } from '../../src/cmd/control-plane.ts';
import type { ControllerLogger } from '../../src/controllers/controller.ts';
import { defaultPlatControllerManagerConfiguration } from '../../src/controllers/manager/config/defaults.ts';
import { startControllerManager } from '../../src/controllers/manager/controller-manager.ts';
import { namingProfile } from '../../src/naming/profile.ts';

export interface RolloutManagerStart {
  configPath: string;
}

/** Asks the child to start a CPU profile, or to stop it and write it to `path` (profile-create.ts). */
export type ProfileRequest = { profile: 'start' } | { profile: 'stop'; path: string };

let session: Session | undefined;

function post(method: string, params: object = {}): Promise<unknown> {
  return new Promise((resolve, reject) =>
    session?.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
  );
}

async function profile(req: ProfileRequest): Promise<void> {
  if (req.profile === 'start') {
    session = new Session();
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
    await post('Profiler.start');
    return;
  }
  const { profile } = (await post('Profiler.stop')) as { profile: unknown };
  writeFileSync(req.path, JSON.stringify(profile));
  session?.disconnect();
  session = undefined;
}

/** Microseconds of CPU the process has used, as process.cpuUsage() counts them. */
export interface CpuSample {
  user: number;
  system: number;
}

const log: ControllerLogger = {
  info: () => {},
  error: (msg, fields) =>
    process.stderr.write(`[child manager] ${msg}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
};

async function start(req: RolloutManagerStart) {
  const profile = namingProfile('spec');
  const config = defaultPlatControllerManagerConfiguration(
    { Generic: { ClientConnection: { qps: LOOPBACK_QPS } } },
    profile,
  );
  config.Generic.LeaderElection.leaderElect = false;
  const manager = await startControllerManager({
    platconfig: req.configPath,
    config,
    profile,
    securePort: 'none',
    log,
  });
  await manager.leading;
  return manager;
}

process.once('message', (req: RolloutManagerStart) => {
  start(req).then(
    (manager) => {
      process.on('message', (m: unknown) => {
        if (typeof m === 'object' && m !== null && 'profile' in m) {
          profile(m as ProfileRequest).then(
            () => process.send?.({ reply: {} }),
            (err: Error) => process.send?.({ error: err.message }),
          );
          return;
        }
        const { user, system } = process.cpuUsage();
        process.send?.({ reply: { user, system } satisfies CpuSample });
      });
      process.once('SIGTERM', () => {
        manager.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
      process.send?.({ reply: { controllers: manager.running() } });
    },
    (err: Error) => process.send?.({ error: err.stack ?? err.message }, () => process.exit(1)),
  );
});
