// startControllerManager: the controller manager as a library call. It connects to an API server
// (a platconfig, or connection options handed in by startControlPlane), serves its own /healthz and
// /metrics, and, while it holds the leader Lease (or always, without leader election), runs every
// enabled controller on shared informers. Losing the lease stops the controllers; the program
// exits then, as upstream's does, and the library reports it through onLeadershipLost. Its
// /metrics show upstream's work queue and leader election metrics from this manager's own registry.

import type { ApiClient } from '../../client/api.ts';
import { restOptionsFromPlatconfig } from '../../client/config.ts';
import { SharedInformerFactory } from '../../client/informers/factory.ts';
import { resyncPeriodFromMin } from '../../client/informers/resync.ts';
import { defaultIdentity } from '../../client/leader-election/config.ts';
import { LeaderElector } from '../../client/leader-election/elector.ts';
import { leaseResource } from '../../client/leader-election/lease-lock.ts';
import { RestClient, type RestClientOptions } from '../../client/rest-client.ts';
import { withWorkQueueMetrics } from '../../client/work-queue/metrics.ts';
import { loggerFor } from '../../machinery/logging/index.ts';
import { CM_FIELD, componentName, type NamingProfile, namingProfile } from '../../naming/index.ts';
import type { HealthCheck } from '../../server/health/health.ts';
import type {
  ControllerContext,
  ControllerDescriptor,
  ControllerLogger,
  RunningController,
} from '../controller.ts';
import {
  controllerAliases,
  controllersDisabledByDefault,
  isControllerEnabled,
} from './config/controllers-flag.ts';
import { ConfigurationError, failOnErrors } from './config/decode.ts';
import { defaultPlatControllerManagerConfiguration } from './config/defaults.ts';
import { durationMs } from './config/go-duration.ts';
import type { PlatControllerManagerConfiguration } from './config/types-controllers.ts';
import { validatePlatControllerManagerConfiguration } from './config/validate.ts';
import { DelegatedAuth } from './delegated-auth.ts';
import { allControllerDescriptors } from './descriptors.ts';
import {
  CONTROLLER_FEATURE_GATE_DEFAULTS,
  controllerFeatureGates,
  unknownFeatureGate,
} from './feature-gates.ts';
import { type ControllerManagerMetrics, controllerManagerMetrics } from './metrics/index.ts';
import { type SecureServer, startSecureServing } from './secure-serving.ts';
import { ServiceAccountCredentialSource } from './service-account-credentials.ts';

export interface ControllerManagerOptions {
  /** The configuration (decoded and defaulted); upstream's defaults when absent. */
  config?: PlatControllerManagerConfiguration;
  /** The platconfig to connect with; else the configuration's ClientConnection file. */
  platconfig?: string;
  /** Connection options instead of a file (startControlPlane's in-memory credentials). */
  connection?: RestClientOptions;
  /** The API server's address, over the client configuration's (--master). */
  master?: string;
  /**
   * Each controller as its own service account in the system namespace; else the
   * configuration's UseServiceAccountCredentials.
   */
  useServiceAccountCredentials?: boolean;
  /** The secure port: 0 picks a free one, 'none' serves nothing; else the configuration's Generic.Port. */
  securePort?: number | 'none';
  /**
   * 127.0.0.1 by default: a library caller opts in to wider listening. The program passes the
   * configuration's Generic.Address (--bind-address), as upstream serves.
   */
  bindAddress?: string;
  /** The controllers this manager knows; every system controller by default. */
  descriptors?: ControllerDescriptor[];
  profile?: NamingProfile;
  /** Root CA bundle published to namespaces when SAController.RootCAFile is unset. */
  clientCA?: string;
  log?: ControllerLogger;
  /** `--feature-gates`: overrides of the controllers' gates (manager/feature-gates.ts). */
  featureGates?: Readonly<Record<string, boolean>>;
  /** The lease was lost while running: the controllers have stopped (the program exits 1). */
  onLeadershipLost?: () => void;
  /**
   * `--show-hidden-metrics-for-version`: the previous minor release brings back the metrics
   * deprecated in it; anything else but empty is refused with upstream's message.
   */
  showHiddenMetricsForVersion?: string;
}

export interface ControllerManagerHandle {
  /** The secure port's URL ('' when not serving). */
  url: string;
  port: number;
  /** The self-signed serving certificate's CA, to verify the port. */
  caPem: string;
  identity: string;
  isLeader(): boolean;
  /** The names of the controllers running now. */
  running(): string[];
  /** Resolves once this manager leads and its controllers have started. */
  leading: Promise<void>;
  stop(): Promise<void>;
}

const managerLog = loggerFor('controllers/manager');

/** The process-wide logger (machinery/logging) behind the controllers' interface; `err` becomes the error. */
const defaultLog: ControllerLogger = {
  info: (msg, fields) => managerLog.info(msg, fields),
  error: (msg, fields) => {
    const { err, ...rest } = fields ?? {};
    managerLog.error(err, msg, rest);
  },
};

/** The configuration a manager runs with: defaults filled in and every rule checked. */
function effectiveConfig(
  given: PlatControllerManagerConfiguration | undefined,
  profile: NamingProfile,
): PlatControllerManagerConfiguration {
  const config = given ?? defaultPlatControllerManagerConfiguration({}, profile);
  failOnErrors(validatePlatControllerManagerConfiguration(config, profile));
  return config;
}

export async function startControllerManager(
  opts: ControllerManagerOptions = {},
): Promise<ControllerManagerHandle> {
  const profile = opts.profile ?? namingProfile('spec');
  const config = effectiveConfig(opts.config, profile);
  const gateError = unknownFeatureGate(opts.featureGates ?? {}, [CONTROLLER_FEATURE_GATE_DEFAULTS]);
  if (gateError !== undefined) throw new ConfigurationError(gateError);
  const featureGate = controllerFeatureGates(opts.featureGates);
  let metrics: ControllerManagerMetrics;
  try {
    metrics = controllerManagerMetrics(opts.showHiddenMetricsForVersion);
  } catch (err) {
    throw new ConfigurationError((err as Error).message);
  }
  const log = opts.log ?? defaultLog;
  const generic = config.Generic;
  const connection = generic.ClientConnection;
  const platconfig = opts.platconfig ?? (connection[CM_FIELD.clientConfig] || undefined);
  if (opts.connection === undefined && platconfig === undefined) {
    throw new ConfigurationError(
      `no client configuration: set --${profile.clientConfig} or Generic.ClientConnection.${CM_FIELD.clientConfig}`,
    );
  }
  const tuning = {
    qps: connection.qps,
    burst: connection.burst,
    contentType: connection.contentType || undefined,
    acceptContentTypes: connection.acceptContentTypes || undefined,
    profile,
  };
  const rootOptions: RestClientOptions = {
    ...(opts.connection ?? restOptionsFromPlatconfig(platconfig as string, { profile })),
    ...tuning,
    ...(opts.master === undefined ? {} : { server: opts.master }),
    userAgent: `${componentName(profile, 'controller-manager')}/v1.35.0`,
  };
  const root = new RestClient(rootOptions);
  const systemNamespace = componentName(profile, 'system');
  const clients: RestClient[] = [root];
  const useServiceAccounts =
    opts.useServiceAccountCredentials ?? config[CM_FIELD.cloudShared].UseServiceAccountCredentials;
  const clientFor = (d: ControllerDescriptor): ApiClient => {
    // A controller that mints credentials (the token controller) keeps the manager's own, as upstream.
    if (!useServiceAccounts || d.rootCredentials === true) return root;
    const c = new RestClient({
      ...rootOptions,
      userAgent: `${rootOptions.userAgent}/${d.serviceAccountName}`,
      credentials: new ServiceAccountCredentialSource({
        root,
        profile,
        namespace: systemNamespace,
        name: d.serviceAccountName,
      }),
    });
    clients.push(c);
    return c;
  };

  const descriptors = opts.descriptors ?? allControllerDescriptors();
  const disabled = controllersDisabledByDefault(profile);
  const aliases = controllerAliases(profile);
  const enabled = descriptors.filter((d) =>
    isControllerEnabled(
      d.name,
      generic.Controllers,
      d.enabledByDefault ? disabled : [...disabled, d.name],
      aliases,
    ),
  );

  const managerName = componentName(profile, 'controller-manager');

  const running = new Map<string, RunningController>();
  let informers: SharedInformerFactory | undefined;
  let leaderSignal: AbortController | undefined;
  let stopping = false;
  let resolveLeading: () => void = () => undefined;
  const leading = new Promise<void>((r) => {
    resolveLeading = r;
  });

  const startControllers = async (signal: AbortSignal): Promise<void> => {
    const factory = new SharedInformerFactory(root, {
      defaultResyncMs: resyncPeriodFromMin(durationMs(generic.MinResyncPeriod)),
      onError: (err, gvr) => log.error('informer', { resource: gvr.resource, err: (err as Error).message }),
    });
    informers = factory;
    for (const d of enabled) {
      if (signal.aborted) break;
      const ctx: ControllerContext = {
        client: clientFor(d),
        informers: factory,
        config,
        naming: profile,
        clientCA: opts.clientCA ?? rootOptions.caPem,
        featureGate,
        signal,
        log,
      };
      try {
        // Queues the controller makes as it starts meter into this manager's registry.
        running.set(d.name, await withWorkQueueMetrics(metrics.workQueues, () => d.start(ctx)));
        log.info(`Started controller ${d.name}`);
      } catch (err) {
        log.error(`Error starting controller ${d.name}`, { err: (err as Error).message });
      }
    }
    factory.start();
    resolveLeading();
  };

  const stopControllers = async (): Promise<void> => {
    leaderSignal?.abort();
    const all = [...running.values()];
    running.clear();
    await Promise.all(all.map((r) => r.stop().catch(() => undefined)));
    informers?.stop();
    informers = undefined;
  };

  const electionRoot = new AbortController();
  const election = generic.LeaderElection;
  const identity = defaultIdentity();
  let elector: LeaderElector | undefined;
  let electing: Promise<void> | undefined;
  if (election.leaderElect) {
    // Upstream names the election (in its metrics and health check) after the lease.
    const leaseName = election.resourceName || managerName;
    elector = new LeaderElector({
      leases: root.resource(leaseResource(profile), election.resourceNamespace || systemNamespace),
      resourceName: leaseName,
      resourceLock: election.resourceLock,
      identity,
      leaseDurationMs: durationMs(election.leaseDuration),
      renewDeadlineMs: durationMs(election.renewDeadline),
      retryPeriodMs: durationMs(election.retryPeriod),
      releaseOnCancel: true,
      name: leaseName,
      metrics: metrics.leaderElection,
      onError: (err) => log.error('leader election', { err: (err as Error).message }),
      callbacks: {
        onStartedLeading: (signal) => {
          log.info(`${identity} became leader`);
          leaderSignal = new AbortController();
          const both = AbortSignal.any([signal, leaderSignal.signal]);
          void startControllers(both);
        },
        onStoppedLeading: () => {
          void stopControllers().then(() => {
            if (!stopping) {
              log.error('leaderelection lost');
              opts.onLeadershipLost?.();
            }
          });
        },
      },
    });
    electing = elector.run(electionRoot.signal);
  } else {
    leaderSignal = new AbortController();
    await startControllers(leaderSignal.signal);
  }

  // Whether the API server answers, asked at most once a second however often /healthz is read:
  // an unreachable or restarting server shows here while the informers and queues retry.
  let reachable: { at: number; result: Promise<Error | undefined> } | undefined;
  const apiserverCheck: HealthCheck = {
    name: 'apiserver',
    check: () => {
      const now = Date.now();
      if (reachable === undefined || now - reachable.at >= 1000) {
        const result = root
          .send({ method: 'GET', path: '/readyz', signal: AbortSignal.timeout(5000), accept: 'text/plain' })
          .then(
            (r) =>
              r.status === 200 ? undefined : new Error(`the API server's /readyz answered ${r.status}`),
            (err: Error) => new Error(`the API server cannot be reached: ${err.message}`),
          );
        reachable = { at: now, result };
      }
      return reachable.result;
    },
  };

  const checks = (): HealthCheck[] => {
    const out: HealthCheck[] = [{ name: 'ping', check: () => undefined }, apiserverCheck];
    if (elector !== undefined) {
      const e = elector;
      // Upstream tolerates 20 seconds past the lease before calling the manager unhealthy.
      out.push({
        name: 'leaderElection',
        check: () => {
          e.check(20_000);
          return undefined;
        },
      });
    }
    for (const [name, r] of running) {
      out.push({
        name,
        check: async () => {
          await r.check?.();
          return undefined;
        },
      });
    }
    return out;
  };

  let server: SecureServer | undefined;
  const port = opts.securePort ?? generic.Port;
  if (port !== 'none' && !(opts.securePort === undefined && generic.Port === 0)) {
    server = await startSecureServing({
      bindAddress: opts.bindAddress ?? '127.0.0.1',
      port,
      checks,
      metrics: metrics.registry.registry,
      configz: () => ({ componentconfig: config }),
      auth: new DelegatedAuth({ client: root, profile }),
      commonName: managerName,
      log: (m) => log.error(m),
    });
  }

  return {
    url: server?.url ?? '',
    port: server?.port ?? 0,
    caPem: server?.caPem ?? '',
    identity,
    isLeader: () => (elector === undefined ? true : elector.isLeader()),
    running: () => [...running.keys()],
    leading,
    async stop() {
      stopping = true;
      electionRoot.abort();
      await electing;
      await stopControllers();
      await server?.close();
      for (const c of clients) c.close();
    },
  };
}
