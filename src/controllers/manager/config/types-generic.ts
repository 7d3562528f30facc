// The configuration types every controller manager shares, with upstream's JSON names (component-base
// config/v1alpha1 and controller-manager config/v1alpha1): how to reach the API server, leader
// election, debugging, the generic section with --controllers, and leader migration. Fields that
// upstream leaves untagged keep their Go names (`Port`, `LeaderElection`), tagged ones their tags
// (`leaderElect`). After decoding every field is present (defaults applied), so none is optional.

import { CM_FIELD } from '../../../naming/index.ts';
import type { Duration } from './go-duration.ts';

/** How the manager builds its API clients (component-base ClientConnectionConfiguration). */
export interface ClientConnectionConfiguration {
  /** Path of the client configuration file (upstream `kubeconfig`). */
  [CM_FIELD.clientConfig]: string;
  /** Accept header of the manager's requests; empty means `application/json`. */
  acceptContentTypes: string;
  /** Content type of request bodies. */
  contentType: string;
  qps: number;
  burst: number;
}

export interface DebuggingConfiguration {
  enableProfiling: boolean;
  /** Block profiling, effective only while profiling is on. */
  enableContentionProfiling: boolean;
}

export interface LeaderElectionConfiguration {
  leaderElect: boolean;
  leaseDuration: Duration;
  /** Not above leaseDuration. */
  renewDeadline: Duration;
  retryPeriod: Duration;
  resourceLock: string;
  resourceName: string;
  resourceNamespace: string;
}

export interface ControllerLeaderConfiguration {
  /** A controller's name (`route-controller`). */
  name: string;
  /** The component that runs it, or `*` for any component in the migration. */
  component: string;
}

/** Which controllers move between managers under one migration lock (controller-manager v1alpha1). */
export interface LeaderMigrationConfiguration {
  leaderName: string;
  /** `leases` or `endpoints`. */
  resourceLock: string;
  controllerLeaders: ControllerLeaderConfiguration[];
}

export interface GenericControllerManagerConfiguration {
  Port: number;
  /** IP to serve on; 0.0.0.0 for all interfaces. */
  Address: string;
  /** Informer resync: random between it and twice it. */
  MinResyncPeriod: Duration;
  ClientConnection: ClientConnectionConfiguration;
  /** Pause between starting two controllers. */
  ControllerStartInterval: Duration;
  LeaderElection: LeaderElectionConfiguration;
  /** `*` (the default-enabled ones), `name`, `-name`; the first item for a name wins. */
  Controllers: string[];
  Debugging: DebuggingConfiguration;
  LeaderMigrationEnabled: boolean;
  LeaderMigration: LeaderMigrationConfiguration;
}
