// The command-line flags kube-controller-manager maps onto its configuration, and applying them
// over a decoded file: a flag given on the command line wins over the file; a flag not given leaves
// the file's (or the default) value. Flags whose upstream name carries a brand (`--kube-api-qps`,
// `--kube-api-burst`, `--kube-api-content-type`, `--kubeconfig`, `--cluster-signing-kubelet-*` and
// `--cluster-signing-kube-apiserver-client-*`) take the profile's word in its place (naming/'s
// controllerManagerNames().flags); under the upstream profile they are upstream's names. This file
// holds the generic and cloud-shared flags; flags-controllers.ts the rest.

import {
  CM_FIELD,
  controllerManagerNames,
  type NamingProfile,
  namingProfile,
} from '../../../naming/index.ts';
import { defaultLeaderMigration } from './defaults-generic.ts';
import { type ConfigFlag, configFlag as f, type ParsedFlags } from './flag-spec.ts';
import { parseString } from './flag-values.ts';
import { controllerSectionFlags } from './flags-controllers.ts';
import type { PlatControllerManagerConfiguration } from './types-controllers.ts';

export type { ConfigFlag, ParsedFlags } from './flag-spec.ts';

const enableLeaderMigration: ConfigFlag = {
  ...f(
    'enable-leader-migration',
    'bool',
    'Generic.LeaderMigrationEnabled',
    'enable controller leader migration',
  ),
  apply(config, value) {
    config.Generic.LeaderMigrationEnabled = value as boolean;
    const m = config.Generic.LeaderMigration;
    // Enabled without a migration configuration: the built-in one, as upstream.
    if (value === true && m.leaderName === '' && m.resourceLock === '' && m.controllerLeaders.length === 0) {
      config.Generic.LeaderMigration = defaultLeaderMigration();
    }
  },
};

const leaderMigrationConfig: ConfigFlag = {
  name: 'leader-migration-config',
  arg: '<file>',
  description: 'LeaderMigrationConfiguration file (the program reads it); default: the built-in one',
  parse: parseString,
  default: undefined,
};

/** The flags of the generic and cloud-shared sections under the profile. */
function genericFlags(profile: NamingProfile): ConfigFlag[] {
  const n = controllerManagerNames(profile);
  const le = 'Generic.LeaderElection';
  const cc = 'Generic.ClientConnection';
  const cs = CM_FIELD.cloudShared;
  return [
    f(
      'min-resync-period',
      'duration',
      'Generic.MinResyncPeriod',
      'informer resync: between this and twice it',
    ),
    f(n.flags.apiContentType, 'string', `${cc}.contentType`, 'content type of requests to the API server'),
    f(n.flags.apiQps, 'float32', `${cc}.qps`, 'queries per second to the API server'),
    f(n.flags.apiBurst, 'int32', `${cc}.burst`, 'burst of queries to the API server'),
    f(n.flags.clientConfig, 'string', `${cc}.${CM_FIELD.clientConfig}`, 'client configuration file'),
    f(
      'controller-start-interval',
      'duration',
      'Generic.ControllerStartInterval',
      'pause between starting controllers',
    ),
    f(
      'controllers',
      'list',
      'Generic.Controllers',
      "'*' the default ones, 'foo' enables foo, '-foo' disables foo",
    ),
    f('leader-elect', 'bool', `${le}.leaderElect`, 'elect a leader before running controllers'),
    f('leader-elect-lease-duration', 'duration', `${le}.leaseDuration`, 'how long an unrenewed lease holds'),
    f('leader-elect-renew-deadline', 'duration', `${le}.renewDeadline`, 'how long a leader tries to renew'),
    f(
      'leader-elect-retry-period',
      'duration',
      `${le}.retryPeriod`,
      'pause between acquire or renew attempts',
    ),
    f('leader-elect-resource-lock', 'string', `${le}.resourceLock`, "lock object type (only 'leases')"),
    f('leader-elect-resource-name', 'string', `${le}.resourceName`, 'name of the lock object'),
    f('leader-elect-resource-namespace', 'string', `${le}.resourceNamespace`, 'namespace of the lock object'),
    f('profiling', 'bool', 'Generic.Debugging.enableProfiling', 'serve /debug/pprof'),
    f(
      'contention-profiling',
      'bool',
      'Generic.Debugging.enableContentionProfiling',
      'block profiling, with --profiling',
    ),
    enableLeaderMigration,
    leaderMigrationConfig,
    f('cloud-provider', 'string', `${cs}.CloudProvider.Name`, 'cloud provider; empty for none'),
    f('cloud-config', 'string', `${cs}.CloudProvider.CloudConfigFile`, 'cloud provider configuration file'),
    f(
      'external-cloud-volume-plugin',
      'string',
      `${cs}.ExternalCloudVolumePlugin`,
      'volume plugin of an external cloud',
    ),
    f(
      'use-service-account-credentials',
      'bool',
      `${cs}.UseServiceAccountCredentials`,
      'each controller as its own service account',
    ),
    f(
      'allow-untagged-cloud',
      'bool',
      `${cs}.AllowUntaggedCloud`,
      'deprecated: no cluster id on cloud instances',
    ),
    f(
      'route-reconciliation-period',
      'duration',
      `${cs}.RouteReconciliationPeriod`,
      'cloud route reconciliation period',
    ),
    f('node-monitor-period', 'duration', `${cs}.NodeMonitorPeriod`, 'period of syncing NodeStatus'),
    f('cluster-name', 'string', `${cs}.ClusterName`, 'instance prefix of the cluster'),
    f('cluster-cidr', 'string', `${cs}.ClusterCIDR`, 'CIDR range of Pods (with --allocate-node-cidrs)'),
    f('allocate-node-cidrs', 'bool', `${cs}.AllocateNodeCIDRs`, 'allocate Pod CIDRs to nodes'),
    f('cidr-allocator-type', 'string', `${cs}.CIDRAllocatorType`, 'CIDR allocator'),
    f(
      'configure-cloud-routes',
      'bool',
      `${cs}.ConfigureCloudRoutes`,
      'configure allocated CIDRs on the cloud',
    ),
    f('node-sync-period', 'duration', `${cs}.NodeSyncPeriod`, 'deprecated, no effect'),
    f(
      'concurrent-service-syncs',
      'int32',
      'ServiceController.ConcurrentServiceSyncs',
      'Services synced concurrently',
    ),
  ];
}

/** Every configuration flag under the profile. */
export function controllerManagerFlags(profile: NamingProfile = namingProfile('spec')): ConfigFlag[] {
  return [...genericFlags(profile), ...controllerSectionFlags(profile)];
}

/**
 * The configuration with every flag given on the command line applied over it (in place; also
 * returned). Values were converted by the parser; flags the program reads itself are skipped.
 */
export function applyFlags(
  config: PlatControllerManagerConfiguration,
  parsed: ParsedFlags,
  flags: readonly ConfigFlag[] = controllerManagerFlags(),
): PlatControllerManagerConfiguration {
  for (const flag of flags) {
    if (!parsed.given.has(flag.name)) continue;
    const value = parsed.values[flag.name];
    if (flag.apply !== undefined) flag.apply(config, value);
    else if (flag.field !== undefined) setPath(config, flag.field, value);
  }
  return config;
}

function setPath(root: object, path: readonly string[], value: unknown): void {
  let at = root as Record<string, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path[path.length - 1]] = Array.isArray(value) ? [...value] : value;
}
