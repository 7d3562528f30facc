// startServer: the library entry point. Opens the store, ensures the data directory's credentials,
// builds the served resources, the filter chain and the routes, listens, runs the post-start hooks,
// and returns a handle whose stop() shuts down in upstream's order: /readyz fails first, then the
// listener stops accepting, in-flight requests finish, and the store closes.

import { setMaxListeners } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { join, resolve } from 'node:path';
import { AdmissionChain } from '../admission/chain.ts';
import { namespaceLifecycle } from '../admission/namespace-lifecycle.ts';
import { nodeRestriction } from '../admission/node-restriction.ts';
import type { TokenReviewer } from '../apis/authentication/index.ts';
import { builtinKinds } from '../apis/index.ts';
import { buildAuthentication } from '../auth/authn/config.ts';
import { prepareServiceAccounts } from '../auth/authn/service-account-setup.ts';
import type { ObjectReader } from '../auth/authn/types.ts';
import { alwaysDeny } from '../auth/authz/always.ts';
import { ensureDefaultPolicy } from '../auth/authz/bootstrap-policy/served-stores.ts';
import { buildAuthorization } from '../auth/authz/config.ts';
import { createRbacAuthorizer, type RbacAuthorizerHandle } from '../auth/authz/rbac/create.ts';
import { rbacEscalationCheck } from '../auth/authz/rbac/escalation.ts';
import type { Authorizer } from '../auth/authz/types.ts';
import { isRuleResolver } from '../auth/authz/union.ts';
import { renderClientConfig } from '../client/client-config.ts';
import { loggerFor, logRequest, remoteAddr, requestLogEnabled } from '../machinery/logging/index.ts';
import { MetricsRegistry } from '../machinery/metrics/index.ts';
import { tooManyRequests } from '../machinery/status.ts';
import { componentName, groupName, namingProfile, UPSTREAM_ALIASES } from '../naming/profile.ts';
import { withDeclarativeValidation } from '../registry/declarative-validation.ts';
import { createAuditBackend } from './audit/backends/index.ts';
import { type AuditPipeline, openAudit } from './audit/pipeline.ts';
import { servedRbacSource } from './authz-feed.ts';
import { serverCodecs } from './codecs.ts';
import { compose, type RequestContext } from './context.ts';
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import { expireServedEvents } from './event-expiry.ts';
import { featureGates } from './feature-gates.ts';
import { buildFilterChain } from './filters/index.ts';
import { resolveGroupAlias } from './group-aliases.ts';
import { DEFAULT_WATCH_BUDGET, WatchBudget } from './handlers/watch-budget.ts';
import { CompletionCheck, type HealthCheck, withGracePeriod } from './health/health.ts';
import { withIssuerDiscovery } from './issuer-discovery.ts';
import { CONNECTION_DEFAULTS, type ListenerStats, listen } from './listener.ts';
import { type Kind, metricScope, metricVerb, RequestMetrics } from './metrics/index.ts';
import { lazyNodeAuthorizer } from './node-graph-feed.ts';
import { openStorage } from './open-storage.ts';
import { buildOpenApi } from './openapi-documents.ts';
import { DEFAULTS, type ServerOptions } from './options.ts';
import { ensurePki } from './pki/ensure-pki.ts';
import { rbacCaughtUp } from './rbac-ready.ts';
import { parseRequestInfo } from './request-info.ts';
import { GZIP_THRESHOLD_BYTES, responseGone, writeError } from './respond.ts';
import { buildRouter } from './routes.ts';
import { ServedResources } from './served-resources.ts';
import { withServiceAccountTokens } from './service-account-tokens.ts';
import { versionDocument } from './version.ts';

export interface ServerHandle {
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Path of the admin client configuration file in the data directory. */
  adminConfigPath: string;
  /** Its content: kubectl and client libraries read it as a kubeconfig. */
  adminConfig: string;
  /** Resolves once every post-start hook has finished (/readyz turns 200). */
  ready: Promise<void>;
  /** Open connections and request handlers still working, as the listener counts them. */
  connectionStats(): ListenerStats;
  stop(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<ServerHandle> {
  const lock = lockDataDir(options.dataDir);
  // What must be released when a later step fails (audit may hold files and sockets).
  const opened: { audit?: AuditPipeline } = {};
  try {
    return await startOnLockedDir(options, lock, opened);
  } catch (err) {
    await opened.audit?.shutdown();
    lock.release();
    throw err;
  }
}

async function startOnLockedDir(
  options: ServerOptions,
  lock: DataDirLock,
  opened: { audit?: AuditPipeline },
): Promise<ServerHandle> {
  const startedAt = Date.now();
  const profile = namingProfile(options.naming ?? DEFAULTS.naming);
  const host = options.bindAddress ?? DEFAULTS.bindAddress;
  // Every layer defines its metrics here; a bad --show-hidden-metrics-for-version stops the start.
  const metricsRegistry = new MetricsRegistry({
    showHiddenMetricsForVersion: options.showHiddenMetricsForVersion,
  });
  // Bad audit options, policy or webhook configuration stop the start (upstream's messages).
  const audit = await openAudit(options.audit, {
    profile,
    metrics: metricsRegistry,
    createBackend: createAuditBackend,
    log: (m) => loggerFor('audit').infoText(m),
  });
  opened.audit = audit;

  const [pki, storage] = await Promise.all([
    ensurePki({
      dir: options.dataDir,
      caName: `${componentName(profile, 'apiserver')}-ca`,
      hosts: ['localhost', '127.0.0.1', ...(host === '127.0.0.1' || host === 'localhost' ? [] : [host])],
      adminUser: 'admin',
      adminGroups: ['system:masters'],
    }),
    openStorage(options, metricsRegistry),
  ]);
  const certPem = options.tlsCertFile ? readFileSync(options.tlsCertFile, 'utf8') : pki.serving.certPem;
  const keyPem = options.tlsPrivateKeyFile
    ? readFileSync(options.tlsPrivateKeyFile, 'utf8')
    : pki.serving.keyPem;
  const clientCaPem = options.clientCaFile ? readFileSync(options.clientCaFile, 'utf8') : pki.ca.certPem;

  // TokenReview asks the token authenticators, which are built below from the served resources.
  let tokenReviewer: TokenReviewer | undefined;
  // The access reviews ask the authorizer chain, which is built below as well.
  let reviewAuthz: Authorizer | undefined;
  const serviceAccounts = prepareServiceAccounts({
    ...options.authentication,
    pkiDir: options.dataDir,
    servingKeyPem: keyPem,
    profile,
  });
  const gate = featureGates(options.featureGates);
  // Kinds with declarative validation rules compare them with their hand-written ones.
  const kinds = withDeclarativeValidation(
    withServiceAccountTokens(
      builtinKinds(profile, {
        tokenReviewer: () => tokenReviewer,
        authorizer: () => reviewAuthz,
        ruleResolver: () =>
          reviewAuthz !== undefined && isRuleResolver(reviewAuthz) ? reviewAuthz : undefined,
      }),
      profile,
      serviceAccounts,
    ),
    { gate, metrics: metricsRegistry },
  );
  const served = new ServedResources(kinds, storage, profile);
  const systemNamespaces = [
    'default',
    componentName(profile, 'system'),
    componentName(profile, 'public'),
    componentName(profile, 'node-lease'),
  ];
  // Writes of the RBAC kinds are checked for escalation whatever the modes, as upstream does: the
  // rules from the RBAC index built below, `escalate` and `bind` asked of the whole chain.
  const rbacGroupName = groupName(profile, 'rbac.authorization');
  let rbac: RbacAuthorizerHandle | undefined;
  const admission = new AdmissionChain([
    namespaceLifecycle({ get: (name) => served.namespace(name) }, systemNamespaces),
    nodeRestriction(servedObjectReader(served), profile),
    rbacEscalationCheck({
      group: rbacGroupName,
      groupAliases: served.groupAliases,
      authorizer: () => reviewAuthz ?? alwaysDeny,
      rules: () => {
        if (rbac === undefined) throw new Error('the RBAC index is not started');
        return rbac.rules;
      },
    }),
  ]);
  const metaGroups = [groupName(profile, 'meta'), UPSTREAM_ALIASES.metaGroup];
  const env = {
    profile,
    metaGroups,
    served,
    codecs: serverCodecs(profile, served, gate('CBORServingAndStorage')),
    admission,
    gate,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? DEFAULTS.minRequestTimeoutSeconds,
    watchBudget:
      options.watchBudget instanceof WatchBudget
        ? options.watchBudget
        : new WatchBudget({ ...DEFAULT_WATCH_BUDGET, ...options.watchBudget }),
    metrics: metricsRegistry,
  };

  // Health: named checks as upstream names them; post-start hooks report through CompletionChecks.
  let shuttingDown = false;
  const namespacesHook = new CompletionCheck('poststarthook/start-system-namespaces-controller');
  const rbacHook = new CompletionCheck('poststarthook/rbac/bootstrap-roles');
  const ping: HealthCheck = { name: 'ping', check: () => undefined };
  const log: HealthCheck = { name: 'log', check: () => undefined };
  const store: HealthCheck = {
    name: 'storage',
    check: async () => {
      await storage.currentRevision();
      return undefined;
    },
  };
  const shutdown: HealthCheck = {
    name: 'shutdown',
    check: () => (shuttingDown ? new Error('process is shutting down') : undefined),
  };
  const grace = options.livezGracePeriodMs ?? DEFAULTS.livezGracePeriodMs;
  const livez = [ping, log, store, namespacesHook, rbacHook].map((c) => withGracePeriod(c, startedAt, grace));
  const health = {
    livez,
    readyz: [ping, log, store, namespacesHook, rbacHook, shutdown],
    healthz: [ping, log, store, namespacesHook, rbacHook],
  };

  const clientCa =
    options.clientCaFile !== undefined || options.tlsCertFile === undefined ? clientCaPem : undefined;
  // Bad authentication flags or files stop the start here (the program exits 1).
  const authentication = await Promise.resolve()
    .then(() =>
      buildAuthentication({
        ...options.authentication,
        clientCertificates: clientCa !== undefined,
        tokenAuthFile: options.tokenAuthFile,
        anonymous: options.anonymousAuth ?? DEFAULTS.anonymousAuth,
        objects: servedObjectReader(served),
        pkiDir: options.dataDir,
        servingKeyPem: keyPem,
        serviceAccount: serviceAccounts.options,
        serviceAccounts,
        jwt: {
          profile,
          anonymousFlagSet: options.authentication?.anonymousAuthGiven ?? options.anonymousAuth !== undefined,
        },
        profile,
        metrics: metricsRegistry,
      }),
    )
    .catch(async (err) => {
      await storage.close();
      throw err;
    });
  const authn = authentication.chain;
  tokenReviewer = {
    authenticateToken: (token, audiences) => authentication.tokens.authenticateToken(token, audiences),
    apiAudiences: authentication.apiAudiences,
  };
  // Bad authorization flags or files stop the start here too. RBAC follows the served RBAC kinds.
  const logAuthz = (m: string) => loggerFor('authorization').infoText(m);
  // One RBAC index serves the RBAC mode (when chosen) and the escalation checks.
  rbac = createRbacAuthorizer(servedRbacSource(served, profile, logAuthz), {
    profile,
    groupAliases: served.groupAliases,
  });
  const rbacHandle = rbac;
  // The Node mode's graph of bound Pods, fed from the watch cache once a chain uses the mode.
  const nodeAuthz = lazyNodeAuthorizer(served, profile, logAuthz);
  let authorization: ReturnType<typeof buildAuthorization>;
  try {
    authorization = buildAuthorization({
      ...options.authorization,
      modes: options.authorizationModes,
      profile,
      rbac: () => rbacHandle.authorizer,
      node: () => nodeAuthz.get().authorizer,
      log: logAuthz,
      metrics: metricsRegistry,
    });
  } catch (err) {
    rbacHandle.stop();
    nodeAuthz.stop();
    authentication.close();
    await storage.close();
    throw err;
  }
  const authz = authorization.authorizer;
  reviewAuthz = authz;
  let serverAddress = '';
  const metrics = new RequestMetrics(metricsRegistry);
  const router = withIssuerDiscovery(
    buildRouter({
      env,
      discoveryGroups: [groupName(profile, 'apidiscovery'), UPSTREAM_ALIASES.discoveryGroup],
      openapi: buildOpenApi(served.advertisedKinds(), profile),
      health,
      version: versionDocument(),
      serverAddress: () => serverAddress,
      metrics,
    }),
    {
      issuer: serviceAccounts.options.issuers[0],
      jwksUri: serviceAccounts.options.jwksUri,
      externalAddress: () => serverAddress,
      keys: serviceAccounts.verifyingKeys,
    },
    (m) => loggerFor('server/issuer-discovery').infoText(m),
  );
  const handle = compose(
    buildFilterChain({
      authn,
      authz,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
      authenticationGroup: groupName(profile, 'authentication'),
      authorizationAttempts: authorization.attempts,
      audit,
      authorizationGroup: groupName(profile, 'authorization'),
    }),
    router,
  );

  const closing = new AbortController();
  // Every request in flight listens for shutdown: far more than the default warning threshold.
  setMaxListeners(0, closing.signal);
  /** Responses whose handler has finished: closing them aborts nothing. */
  const handled = new WeakSet<Http2ServerResponse>();
  const contextOf = (req: Http2ServerRequest, res: Http2ServerResponse): RequestContext => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const aborted = new AbortController();
    // One shared reason: abort() would otherwise build a DOMException (and its stack) each time.
    const abort = () => aborted.abort(REQUEST_ABORTED);
    closing.signal.addEventListener('abort', abort, { once: true });
    const startedMs = performance.now();
    const ctx: RequestContext = {
      req,
      res,
      method: req.method ?? 'GET',
      url,
      query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
      info: resolveGroupAlias(parseRequestInfo(req.method ?? 'GET', url), served.groupAliases),
      warnings: [],
      signal: aborted.signal,
      gzipAboveBytes: env.gate('APIResponseCompression') ? GZIP_THRESHOLD_BYTES : undefined,
      // Present from the start, so every context has one shape whether audit fills it or not.
      audit: undefined,
    };
    const kind: Kind = metrics.begin(ctx);
    // The peer is read now: once the response closes, an HTTP/2 stream no longer names its socket.
    const srcIP = requestLogEnabled()
      ? remoteAddr(req.socket?.remoteAddress, req.socket?.remotePort)
      : undefined;
    res.on('close', () => {
      closing.signal.removeEventListener('abort', abort);
      // Only work still running needs telling (a client gone, a request past its deadline whose
      // 504 went out): aborting every finished request cost about 6% of a get's CPU.
      if (!handled.has(res)) abort();
      metrics.end(ctx, kind, startedMs);
      if (srcIP !== undefined) logRequestLine(ctx, startedMs, srcIP);
    });
    return ctx;
  };
  // The promise settles when the request's work is done: the listener counts HTTP/2 handlers by it.
  const onRequest = (req: Http2ServerRequest, res: Http2ServerResponse): Promise<void> | undefined => {
    // A stream reset before its handler started (it waited its turn) needs no work at all.
    if (responseGone(res)) return undefined;
    const ctx = contextOf(req, res);
    return handle(ctx)
      .catch((err) => writeError(ctx, err))
      .finally(() => handled.add(res));
  };
  const maxConnections = options.maxConnections ?? CONNECTION_DEFAULTS.maxConnections;
  const onRefused = (req: Http2ServerRequest, res: Http2ServerResponse) =>
    writeError(
      contextOf(req, res),
      tooManyRequests(
        `the server has reached its limit of ${maxConnections} open connections, please try again later`,
        1,
      ),
    );

  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const streams = options.http2MaxStreamsPerConnection ?? 0;
  const listener = await listen({
    host,
    port: options.securePort ?? DEFAULTS.securePort,
    certPem,
    keyPem,
    clientCaPem: clientCa,
    requestHeaderCaPem:
      options.authentication?.requestHeader === undefined
        ? undefined
        : readFileSync(options.authentication.requestHeader.clientCaFile, 'utf8'),
    onRequest,
    onRefused,
    limits: {
      maxStreamsPerConnection: streams > 0 ? streams : CONNECTION_DEFAULTS.maxStreamsPerConnection,
      requestTimeoutMs,
      maxConnections,
      idleTimeoutMs: options.idleTimeoutMs ?? CONNECTION_DEFAULTS.idleTimeoutMs,
      headerTimeoutMs: options.headerTimeoutMs ?? CONNECTION_DEFAULTS.headerTimeoutMs,
    },
  }).catch(async (err) => {
    rbacHandle.stop();
    nodeAuthz.stop();
    await storage.close();
    throw err;
  });
  serverAddress = `${host}:${listener.port}`;
  const url = `https://${host}:${listener.port}`;

  const namespacesReady = ensureNamespaces(served, systemNamespaces).then(
    () => namespacesHook.done(),
    (err: Error) => namespacesHook.fail(err),
  );
  // The default RBAC policy, reconciled at every start once its namespaces exist.
  const ready = namespacesReady
    .then(() =>
      ensureDefaultPolicy(served.lookup.bind(served), profile, (m) =>
        loggerFor('rbac/bootstrap-policy').infoText(m),
      ),
    )
    .then(
      () => rbacHook.done(),
      (err: Error) => rbacHook.fail(err),
    )
    .then(() => rbacCaughtUp(rbacHandle, served, profile).catch(() => undefined));
  const eventExpiry = expireServedEvents(served, options.eventTtlMs ?? DEFAULTS.eventTtlMs);

  const adminConfig = renderClientConfig({
    clusterName: componentName(profile, 'apiserver'),
    server: url,
    caPem: pki.ca.certPem,
    userName: 'admin',
    clientCertPem: pki.admin.certPem,
    clientKeyPem: pki.admin.keyPem,
  });
  const adminConfigPath = join(resolve(options.dataDir), `admin.${profile.clientConfig}`);
  writeFileSync(adminConfigPath, adminConfig, { mode: 0o600 });

  let stopping: Promise<void> | undefined;
  return {
    url,
    port: listener.port,
    adminConfigPath,
    adminConfig,
    ready,
    connectionStats: () => listener.stats(),
    stop() {
      stopping ??= (async () => {
        shuttingDown = true;
        const delay = options.shutdownDelayMs ?? DEFAULTS.shutdownDelayMs;
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        // Long-running requests (watches) end now; the rest get the grace period.
        closing.abort();
        await listener.close(options.shutdownGraceMs ?? DEFAULTS.shutdownGraceMs);
        await ready;
        await eventExpiry?.stop();
        await audit?.shutdown();
        authentication.close();
        authorization.close();
        rbacHandle.stop();
        nodeAuthz.stop();
        await storage.close();
        lock.release();
      })();
      return stopping;
    },
  };
}

/** The request's `"HTTP"` line (V(3)), as upstream's httplog writes it when the response ends. */
function logRequestLine(ctx: RequestContext, startedMs: number, srcIP: string): void {
  const { req, res } = ctx;
  logRequest({
    verb: metricVerb(ctx, metricScope(ctx)),
    uri: ctx.url,
    latencyMs: performance.now() - startedMs,
    userAgent: req.headers['user-agent'] ?? '',
    auditID: String(res.getHeader('audit-id') ?? ''),
    srcIP,
    status: res.statusCode,
  });
}

/** Why a request's signal fired: its client went away, it timed out, or the server is stopping. */
const REQUEST_ABORTED = new Error('request aborted');

/** Objects for the authenticators, from the watch cache where there is one (any revision will do). */
function servedObjectReader(served: ServedResources): ObjectReader {
  return {
    async get(group, version, resource, namespace, name) {
      const r = served.lookup(group, version, resource);
      if (r === undefined) return undefined;
      try {
        return await r.store.get(namespace, name, { kind: 'notOlderThan', revision: 0 });
      } catch (err) {
        if ((err as { code?: number }).code === 404) return undefined;
        throw err;
      }
    },
  };
}

/** The namespaces the system relies on exist from the first start on. */
async function ensureNamespaces(served: ServedResources, names: string[]): Promise<void> {
  const ns = served.lookup('', 'v1', 'namespaces');
  if (ns === undefined) return;
  for (const name of names) {
    if ((await served.namespace(name)) !== undefined) continue;
    try {
      await ns.store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (err) {
      if ((err as { code?: number }).code !== 409) throw err;
    }
  }
}
