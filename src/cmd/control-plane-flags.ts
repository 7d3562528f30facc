// The control-plane program's command line: every API server flag as the API server program takes
// it, the controller manager's configuration flags as the controller manager program takes them,
// and the manager's program flags under a `controller-manager-` prefix (its --config and its own
// secure port, off by default in one process). The manager's client-configuration flag is refused:
// in one process the manager connects over loopback with its own certificate. --simulated-nodes
// adds simulated nodes and their scheduler (3 by default here; the library call's default is none).

import { controllerManagerFlags } from '../controllers/manager/config/index.ts';
import { controllerManagerNames } from '../naming/index.ts';
import { type NamingProfile, namingProfile, type ProfileName } from '../naming/profile.ts';
import { apiserverFlagSpecs, serverOptionsFrom } from './apiserver-flags.ts';
import { type ControlPlaneOptions, LOOPBACK_QPS } from './control-plane.ts';
import {
  controllerManagerConfig,
  controllerManagerProgramFlags,
  namingFromArgv,
} from './controller-manager-flags.ts';
import { FlagError, type FlagSpec, flag, parseFlagsGiven, usage } from './flag-parser.ts';

const PREFIX = 'controller-manager-';
const DESCRIPTION =
  'The whole control plane in one process: the API server (on its embedded store by default) and the controller manager.';

/** What a newcomer gets: a few nodes, so a Deployment's Pods run. */
export const DEFAULT_SIMULATED_NODES = 3;

const SIMULATED_NODES = flag<number>({
  name: 'simulated-nodes',
  arg: '<n>',
  description: `simulated nodes to register, with a scheduler binding Pods to them; 0 for none (default ${DEFAULT_SIMULATED_NODES})`,
  parse: (v) => {
    if (!/^[0-9]+$/.test(v) || Number(v) > 10_000) throw new Error('must be a whole number from 0 to 10000');
    return Number(v);
  },
  default: DEFAULT_SIMULATED_NODES,
});

function flagsFor(profile: NamingProfile): {
  all: FlagSpec[];
  config: ReturnType<typeof controllerManagerFlags>;
} {
  const config = controllerManagerFlags(profile).filter((f) => f.name !== profile.clientConfig);
  return {
    all: [
      ...apiserverFlagSpecs(),
      ...controllerManagerProgramFlags(PREFIX),
      ...(config as FlagSpec[]),
      SIMULATED_NODES,
    ],
    config,
  };
}

export function controlPlaneUsage(name: string, profile: NamingProfile): string {
  return usage(name, DESCRIPTION, flagsFor(profile).all);
}

export function parseControlPlaneFlags(argv: readonly string[], name: string): ControlPlaneOptions {
  const profile = namingFromArgv(argv);
  if (argv.some((a) => a === `--${profile.clientConfig}` || a.startsWith(`--${profile.clientConfig}=`))) {
    throw new FlagError(
      `--${profile.clientConfig} is not used here: the controller manager connects to this process's API server`,
    );
  }
  const { all, config } = flagsFor(profile);
  const { values, given } = parseFlagsGiven(argv, name, all);
  const server = serverOptionsFrom(values, given);
  const manager = controllerManagerConfig(
    values,
    given,
    namingProfile(server.naming as ProfileName),
    config,
    PREFIX,
  );
  const { profile: _p, ...controllerManager } = manager;
  // Each controller as its own account, and no client-side rate limit (startControlPlane's
  // defaults), unless the command line or a configuration file says otherwise.
  const fromFile = values[`${PREFIX}config`] !== undefined;
  if (!given.has('use-service-account-credentials') && !fromFile) {
    controllerManager.useServiceAccountCredentials = undefined;
  }
  if (!given.has(controllerManagerNames(profile).flags.apiQps) && !fromFile && controllerManager.config) {
    controllerManager.config.Generic.ClientConnection.qps = LOOPBACK_QPS;
  }
  return { server, controllerManager, simulatedNodes: values['simulated-nodes'] as number };
}
