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
  configFlagsForDisplay,
  controllerManagerConfig,
  controllerManagerProgramFlags,
  namingFromArgv,
} from './controller-manager-flags.ts';
import { FlagError, type FlagSpec, type FlagValues, flag, parseFlagsGiven, usage } from './flag-parser.ts';
import { withLoggingFlags } from './logging-flags.ts';

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
  /** As --help and the FLAG lines show them, with the manager's defaults filled in. */
  display: FlagSpec[];
  config: ReturnType<typeof controllerManagerFlags>;
} {
  const config = controllerManagerFlags(profile).filter((f) => f.name !== profile.clientConfig);
  // The logging flags once, whether or not the API server's table already carries them.
  const table = (configSpecs: readonly FlagSpec[]) =>
    withLoggingFlags([
      ...apiserverFlagSpecs(),
      ...controllerManagerProgramFlags(PREFIX),
      ...configSpecs,
      SIMULATED_NODES,
    ]);
  return {
    all: table(config as FlagSpec[]),
    display: table(configFlagsForDisplay(config, profile)),
    config,
  };
}

export function controlPlaneUsage(name: string, profile: NamingProfile): string {
  return usage(name, DESCRIPTION, flagsFor(profile).display);
}

/** A parsed command line: the flags and their values, and the options built from them on demand. */
export interface ControlPlaneCommandLine {
  flags: readonly FlagSpec[];
  values: FlagValues;
  /** FlagError for a bad combination, ConfigurationError for a bad configuration file. */
  options(): ControlPlaneOptions;
}

/** Parses argv (FlagError for a bad flag), reading no file yet: the program applies logging first. */
export function controlPlaneCommandLine(argv: readonly string[], name: string): ControlPlaneCommandLine {
  const profile = namingFromArgv(argv);
  if (argv.some((a) => a === `--${profile.clientConfig}` || a.startsWith(`--${profile.clientConfig}=`))) {
    throw new FlagError(
      `--${profile.clientConfig} is not used here: the controller manager connects to this process's API server`,
    );
  }
  const { all, display, config } = flagsFor(profile);
  const { values, given } = parseFlagsGiven(argv, name, all);
  return {
    flags: display,
    // What each flag stands for: the given value, else the defaulted one.
    values: Object.fromEntries(
      display.map((f) => [f.name, given.has(f.name) ? values[f.name] : (values[f.name] ?? f.default)]),
    ),
    options() {
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
    },
  };
}

export function parseControlPlaneFlags(argv: readonly string[], name: string): ControlPlaneOptions {
  return controlPlaneCommandLine(argv, name).options();
}
