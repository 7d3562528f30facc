// The controller manager's command line: the program's own flags (--config, the secure port and
// address, --master, --naming) beside the configuration flags upstream maps onto
// PlatControllerManagerConfiguration (controllers/manager/config/flags.ts). A file given with
// --config is decoded first; flags given on the command line override it; the result is validated
// when the manager starts.

import { readFileSync } from 'node:fs';
import { parseGoDuration } from '../controllers/manager/config/flag-values.ts';
import {
  applyFlags,
  type ConfigFlag,
  controllerManagerFlags,
  decodeLeaderMigrationConfiguration,
  decodePlatControllerManagerConfiguration,
  defaultPlatControllerManagerConfiguration,
} from '../controllers/manager/config/index.ts';
import type { ControllerManagerOptions } from '../controllers/manager/controller-manager.ts';
import { METRICS_VERSION, validateShowHiddenVersion } from '../machinery/metrics/index.ts';
import { CM_FIELD, type NamingProfile, namingProfile, type ProfileName } from '../naming/index.ts';
import { type FlagSpec, type FlagValues, flag, parseFlagsGiven, usage } from './flag-parser.ts';
import { featureGatePairs } from './flag-values.ts';
import { LOGGING_FLAGS } from './logging-flags.ts';

const DESCRIPTION =
  'The controller manager: runs the system controllers against an API server, one active per cluster by leader election.';

/** Upstream's secure port for the controller manager. */
export const CONTROLLER_MANAGER_PORT = 10257;

function port(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error('must be a port number (0 disables serving)');
  return n;
}

/** Upstream's check of --show-hidden-metrics-for-version, at parse time. */
function showHiddenVersion(v: string): string {
  const invalid = validateShowHiddenVersion(v, METRICS_VERSION);
  if (invalid !== undefined) throw new Error(invalid);
  return v;
}

function profileName(v: string): ProfileName {
  if (v !== 'spec' && v !== 'upstream') throw new Error('must be spec or upstream');
  return v;
}

/** The program's own flags; `prefix` names them inside the control-plane program (`controller-manager-`). */
export function controllerManagerProgramFlags(prefix = ''): FlagSpec[] {
  return [
    flag<string | undefined>({
      name: `${prefix}config`,
      arg: '<file>',
      description: 'configuration file (PlatControllerManagerConfiguration, YAML or JSON)',
      parse: (v) => v,
      default: undefined,
    }),
    flag<number>({
      name: `${prefix}secure-port`,
      arg: '<port>',
      description: `HTTPS port of /healthz and /metrics; 0 serves nothing (default ${prefix === '' ? CONTROLLER_MANAGER_PORT : 0})`,
      parse: port,
      default: prefix === '' ? CONTROLLER_MANAGER_PORT : 0,
    }),
    flag<string>({
      name: `${prefix}bind-address`,
      arg: '<ip>',
      description: 'address of the secure port (default 0.0.0.0, every interface)',
      parse: (v) => v,
      default: '0.0.0.0',
    }),
  ];
}

const STANDALONE_FLAGS: FlagSpec[] = [
  flag<Record<string, boolean>>({
    name: 'feature-gates',
    arg: '<gates>',
    description: 'comma-separated key=bool pairs (DeploymentReplicaSetTerminatingReplicas)',
    parse: featureGatePairs,
    default: {},
  }),
  flag<string | undefined>({
    name: 'master',
    arg: '<url>',
    description: "the API server's address, over the client configuration's",
    parse: (v) => v,
    default: undefined,
  }),
  flag<ProfileName>({
    name: 'naming',
    arg: '<profile>',
    description: 'spec (default) or upstream names for groups and labels',
    parse: profileName,
    default: 'spec',
  }),
  flag<string>({
    name: 'show-hidden-metrics-for-version',
    arg: '<x.y>',
    description:
      'the previous minor release, to expose again the metrics deprecated in it (only that release is accepted)',
    parse: showHiddenVersion,
    default: '',
  }),
];

/** The profile a command line asks for, read before the flags whose names depend on it. */
export function namingFromArgv(argv: readonly string[]): NamingProfile {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--naming=')) return namingProfile(profileName(a.slice('--naming='.length)));
    if (a === '--naming' && i + 1 < argv.length) return namingProfile(profileName(argv[i + 1]));
  }
  return namingProfile('spec');
}

/** Every flag the program takes under a profile: its own, the configuration's, the logging ones. */
function allFlags(configFlags: readonly FlagSpec[]): FlagSpec[] {
  return [...controllerManagerProgramFlags(), ...STANDALONE_FLAGS, ...configFlags, ...LOGGING_FLAGS];
}

function fieldValue(root: object, path: readonly string[]): unknown {
  let at: unknown = root;
  for (const key of path) at = (at as Record<string, unknown> | undefined)?.[key];
  return at;
}

/**
 * The configuration flags as --help and the FLAG lines show them: with the value they stand
 * for when not given (the default configuration's field), as upstream's flags are bound to
 * its defaulted options. Parsing keeps `undefined` defaults: a flag not given changes nothing.
 */
export function configFlagsForDisplay(
  configFlags: readonly ConfigFlag[],
  profile: NamingProfile,
  config = defaultPlatControllerManagerConfiguration({}, profile),
): FlagSpec[] {
  return configFlags.map((f) => {
    const spec = f as FlagSpec;
    if (f.field === undefined || f.apply !== undefined) return spec;
    const value = fieldValue(config, f.field);
    if (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value)))
      return spec;
    // Durations are Go durations there, not text: unquoted in `(default 30s)`.
    return { ...spec, default: value, ...(f.parse === parseGoDuration ? { show: String } : {}) };
  });
}

export function controllerManagerUsage(name: string, profile: NamingProfile): string {
  return usage(name, DESCRIPTION, allFlags(configFlagsForDisplay(controllerManagerFlags(profile), profile)));
}

/** Reads --config (and --leader-migration-config), then lays the given flags over it. */
export function controllerManagerConfig(
  values: Readonly<Record<string, unknown>>,
  given: ReadonlySet<string>,
  profile: NamingProfile,
  configFlags: readonly ConfigFlag[],
  prefix = '',
): ControllerManagerOptions {
  const file = values[`${prefix}config`] as string | undefined;
  const config =
    file === undefined
      ? defaultPlatControllerManagerConfiguration({}, profile)
      : decodePlatControllerManagerConfiguration(readFileSync(file, 'utf8'), profile);
  applyFlags(config, { values, given }, configFlags);
  const migration = values['leader-migration-config'] as string | undefined;
  if (migration !== undefined) {
    config.Generic.LeaderMigration = decodeLeaderMigrationConfiguration(
      readFileSync(migration, 'utf8'),
      profile,
    );
  }
  const securePort = values[`${prefix}secure-port`] as number;
  // The control-plane program's API server flag of that name serves its manager too.
  const showHidden = values['show-hidden-metrics-for-version'] as string | undefined;
  return {
    config,
    profile,
    securePort: securePort === 0 ? 'none' : securePort,
    bindAddress: values[`${prefix}bind-address`] as string,
    useServiceAccountCredentials: config[CM_FIELD.cloudShared].UseServiceAccountCredentials,
    ...(showHidden ? { showHiddenMetricsForVersion: showHidden } : {}),
  };
}

/** A parsed command line: the flags and their values, and the options built from them on demand. */
export interface ControllerManagerCommandLine {
  flags: readonly FlagSpec[];
  values: FlagValues;
  /** Reads --config and applies the flags; ConfigurationError for a bad file. */
  options(): ControllerManagerOptions;
}

/**
 * Parses argv (FlagError for a bad flag) without reading any file yet, so the program applies
 * the logging flags before the configuration is loaded, as upstream's does.
 */
export function controllerManagerCommandLine(
  argv: readonly string[],
  name: string,
): ControllerManagerCommandLine {
  const profile = namingFromArgv(argv);
  const configFlags = controllerManagerFlags(profile);
  const { values, given } = parseFlagsGiven(argv, name, allFlags(configFlags as FlagSpec[]));
  const flags = allFlags(configFlagsForDisplay(configFlags, profile));
  return {
    flags,
    // What each flag stands for: the given value, else the defaulted one.
    values: Object.fromEntries(
      flags.map((f) => [f.name, given.has(f.name) ? values[f.name] : (values[f.name] ?? f.default)]),
    ),
    options() {
      const options = controllerManagerConfig(values, given, profile, configFlags);
      const featureGates = values['feature-gates'] as Record<string, boolean>;
      const master = values.master as string | undefined;
      return { ...options, featureGates, ...(master === undefined ? {} : { master }) };
    },
  };
}

/** ControllerManagerOptions from argv; FlagError for a bad flag, ConfigurationError for a bad file. */
export function parseControllerManagerFlags(argv: readonly string[], name: string): ControllerManagerOptions {
  return controllerManagerCommandLine(argv, name).options();
}
