// The contract between the controller manager and each controller: a controller is a named
// descriptor whose start() is given everything it may use (clients and shared informers, its part
// of the configuration, a signal that ends it) and returns a handle the manager can check and stop.
// Controllers reach the API only through these clients, never through registry/ or storage/.

import type { ApiClient, InformerFactory } from '../client/api.ts';
import type { DiscoveryResult } from '../client/discovery.ts';
import type { NamingProfile } from '../naming/profile.ts';

export interface ControllerLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface ControllerContext {
  /**
   * The client this controller writes with: under --use-service-account-credentials it
   * authenticates as the controller's own service account, otherwise as the manager.
   */
  client: ApiClient;
  /** Shared informers (one list and watch per resource for the whole manager). */
  informers: InformerFactory;
  /**
   * The manager's whole configuration (PlatControllerManagerConfiguration, defaulted and
   * validated); each controller reads its own section.
   */
  config: unknown;
  /**
   * The naming profile of the served API (system and public namespaces, Secret types, labels);
   * controllers take the spec's when it is absent.
   */
  naming?: NamingProfile;
  /**
   * PEM of the authority the manager's client trusts (its platconfig's): what the root CA
   * publisher and the token controller hand out when SAController.RootCAFile is unset, as upstream.
   */
  clientCA?: string;
  /**
   * What the server serves (client/discovery.ts's Discovery), for the controllers that act on every
   * resource (garbage collector, namespace controller); built from `client` when absent.
   */
  discovery?: ResourceDiscovery;
  /**
   * A client whose reads answer objects' metadata alone (PartialObjectMetadata), as client-go's
   * metadata client; built from `client` when absent.
   */
  metadataClient?: ApiClient;
  /**
   * The manager's feature gates (manager/feature-gates.ts: upstream's defaults under the
   * operator's --feature-gates); upstream's defaults when absent.
   */
  featureGate?: (name: string) => boolean;
  /** Aborted when the controller must stop (shutdown, or the manager lost its lease). */
  signal: AbortSignal;
  log: ControllerLogger;
}

/** Discovery as controllers use it: every served resource, cached until refresh(). */
export interface ResourceDiscovery {
  all(): Promise<DiscoveryResult>;
  refresh(): void;
}

export interface RunningController {
  /** For the manager's /healthz/<name>: throws (or rejects) with the reason when unhealthy. */
  check?(): void | Promise<void>;
  /** Stops workers and handlers; resolves when no work is in progress. */
  stop(): Promise<void>;
}

export interface ControllerDescriptor {
  /** The name --controllers uses (`serviceaccount-token`, `garbage-collector-controller`, ...). */
  name: string;
  /** Upstream's other names accepted on the command line (`garbagecollector`). */
  aliases?: string[];
  /** false for controllers upstream leaves off unless named (bootstrap-signer, token-cleaner). */
  enabledByDefault: boolean;
  /** The service account it runs as under --use-service-account-credentials (`<name>-controller`). */
  serviceAccountName: string;
  /**
   * Runs with the manager's own credentials even under --use-service-account-credentials: upstream's
   * service account token controller, which writes the very tokens the other controllers use.
   */
  rootCredentials?: boolean;
  start(ctx: ControllerContext): Promise<RunningController>;
}
