// Upstream's defaults for the shared sections (component-base, controller-manager and cloud-provider
// v1alpha1 defaulters, plus the values kube-controller-manager's flags start from). As upstream,
// a zero value counts as unset for most fields (`ConcurrentGCSyncs: 0` becomes 20); fields upstream
// holds as pointers (leaderElect, enableProfiling, ConfigureCloudRoutes) or fills only from flag
// defaults (CIDRAllocatorType) are defaulted only when absent, so an explicit false stays false.

import type { NamingProfile } from '../../../naming/index.ts';
import { CM_FIELD, controllerManagerNames } from '../../../naming/index.ts';
import { type Duration, durationMs } from './go-duration.ts';
import type { PlatCloudSharedConfiguration } from './types-cloud.ts';
import type {
  ClientConnectionConfiguration,
  GenericControllerManagerConfiguration,
  LeaderMigrationConfiguration,
} from './types-generic.ts';

/** Every field optional, all the way down: what a decoded file holds before defaulting. */
export type DeepPartial<T> = T extends (infer E)[]
  ? DeepPartial<E>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** Absent or zero: the duration upstream treats as unset. Text that is no duration stays for validation. */
export function dur(v: Duration | undefined, def: Duration): Duration {
  if (v === undefined) return def;
  try {
    return durationMs(v) === 0 ? def : v;
  } catch {
    return v;
  }
}

/** Absent or 0. */
export function num(v: number | undefined, def: number): number {
  return v === undefined || v === 0 ? def : v;
}

/** Absent or empty. */
export function str(v: string | undefined, def: string): string {
  return v === undefined || v === '' ? def : v;
}

/** Absent only (pointer fields and values that only flags default). */
export function keep<T>(v: T | undefined, def: T): T {
  return v === undefined ? def : v;
}

/** What kube-controller-manager's leader migration uses when enabled without a file. */
export function defaultLeaderMigration(): LeaderMigrationConfiguration {
  return {
    leaderName: 'cloud-provider-extraction-migration',
    resourceLock: 'leases',
    controllerLeaders: [
      { name: 'route-controller', component: '*' },
      { name: 'service-controller', component: '*' },
      { name: 'cloud-node-lifecycle-controller', component: '*' },
    ],
  };
}

export function defaultLeaderMigrationConfiguration(
  m: DeepPartial<LeaderMigrationConfiguration> | undefined,
): LeaderMigrationConfiguration {
  return {
    leaderName: m?.leaderName ?? '',
    resourceLock: m?.resourceLock ?? '',
    controllerLeaders: (m?.controllerLeaders ?? []).map((c) => ({
      name: c?.name ?? '',
      component: c?.component ?? '',
    })),
  };
}

function clientConnection(
  c: DeepPartial<ClientConnectionConfiguration> | undefined,
  profile: NamingProfile,
): ClientConnectionConfiguration {
  return {
    [CM_FIELD.clientConfig]: c?.[CM_FIELD.clientConfig] ?? '',
    acceptContentTypes: c?.acceptContentTypes ?? '',
    contentType: str(c?.contentType, profile.protobufMediaType),
    // Both managers override component-base's 50/100 with 20/30.
    qps: num(c?.qps, 20),
    burst: num(c?.burst, 30),
  };
}

export function defaultGeneric(
  g: DeepPartial<GenericControllerManagerConfiguration> | undefined,
  profile: NamingProfile,
): GenericControllerManagerConfiguration {
  const names = controllerManagerNames(profile);
  const le = g?.LeaderElection;
  const migrationEnabled = g?.LeaderMigrationEnabled ?? false;
  const migration = g?.LeaderMigration;
  const migrationGiven =
    migration !== undefined &&
    (Boolean(migration.leaderName) ||
      Boolean(migration.resourceLock) ||
      (migration.controllerLeaders?.length ?? 0) > 0);
  return {
    Port: g?.Port ?? 0,
    Address: str(g?.Address, '0.0.0.0'),
    MinResyncPeriod: dur(g?.MinResyncPeriod, '12h0m0s'),
    ClientConnection: clientConnection(g?.ClientConnection, profile),
    ControllerStartInterval: dur(g?.ControllerStartInterval, '0s'),
    LeaderElection: {
      leaderElect: keep(le?.leaderElect, true),
      leaseDuration: dur(le?.leaseDuration, '15s'),
      renewDeadline: dur(le?.renewDeadline, '10s'),
      retryPeriod: dur(le?.retryPeriod, '2s'),
      resourceLock: str(le?.resourceLock, 'leases'),
      resourceName: str(le?.resourceName, names.managerComponent),
      resourceNamespace: str(le?.resourceNamespace, names.systemNamespace),
    },
    Controllers:
      g?.Controllers !== undefined && g.Controllers.length > 0 ? [...(g.Controllers as string[])] : ['*'],
    Debugging: {
      enableProfiling: keep(g?.Debugging?.enableProfiling, true),
      enableContentionProfiling: keep(g?.Debugging?.enableContentionProfiling, false),
    },
    LeaderMigrationEnabled: migrationEnabled,
    LeaderMigration:
      migrationEnabled && !migrationGiven
        ? defaultLeaderMigration()
        : defaultLeaderMigrationConfiguration(migration),
  };
}

export function defaultCloudShared(
  c: DeepPartial<PlatCloudSharedConfiguration> | undefined,
  profile: NamingProfile,
): PlatCloudSharedConfiguration {
  return {
    CloudProvider: {
      Name: c?.CloudProvider?.Name ?? '',
      CloudConfigFile: c?.CloudProvider?.CloudConfigFile ?? '',
    },
    ExternalCloudVolumePlugin: c?.ExternalCloudVolumePlugin ?? '',
    UseServiceAccountCredentials: c?.UseServiceAccountCredentials ?? false,
    AllowUntaggedCloud: c?.AllowUntaggedCloud ?? false,
    RouteReconciliationPeriod: dur(c?.RouteReconciliationPeriod, '10s'),
    NodeMonitorPeriod: dur(c?.NodeMonitorPeriod, '5s'),
    ClusterName: str(c?.ClusterName, controllerManagerNames(profile).defaultClusterName),
    ClusterCIDR: c?.ClusterCIDR ?? '',
    AllocateNodeCIDRs: c?.AllocateNodeCIDRs ?? false,
    ConfigureCloudRoutes: keep(c?.ConfigureCloudRoutes, true),
    CIDRAllocatorType: str(c?.CIDRAllocatorType, 'RangeAllocator'),
    NodeSyncPeriod: c?.NodeSyncPeriod ?? '0s',
  };
}
