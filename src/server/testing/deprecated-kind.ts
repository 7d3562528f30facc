// Test support for deprecated API versions: a Widget kind served as a deprecated v1beta1 (with a
// status sub-resource), a v1 nobody deprecated and a v1beta2 whose deprecation release is still to
// come, and a small in-process server over any kinds (plain HTTP/2, no authentication, no
// admission) with the server's routing, handlers, declarative validation and /metrics. No
// built-in version is deprecated in 1.35 and the full server takes no extra kinds, hence this.
// Imported by tests only.

import { once } from 'node:events';
import http2, { type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { AdmissionChain } from '../../admission/chain.ts';
import { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { nameIsDNSSubdomain } from '../../machinery/validation/names.ts';
import { groupName, namingProfile, UPSTREAM_ALIASES } from '../../naming/profile.ts';
import { withDeclarativeValidation } from '../../registry/declarative-validation.ts';
import type { ApiLifecycle, KindDefinition } from '../../registry/kind.ts';
import { STANDARD_VERBS } from '../../registry/resource.ts';
import { compileKindSchema } from '../../schema/compile.ts';
import { openSqliteStorage } from '../../storage/sqlite/index.ts';
import { serverCodecs } from '../codecs.ts';
import type { RequestContext } from '../context.ts';
import { featureGates } from '../feature-gates.ts';
import { resolveGroupAlias } from '../group-aliases.ts';
import type { HandlerEnv } from '../handlers/index.ts';
import { RequestMetrics } from '../metrics/index.ts';
import { parseRequestInfo } from '../request-info.ts';
import { writeError } from '../respond.ts';
import { buildRouter } from '../routes.ts';
import { ServedResources } from '../served-resources.ts';

/** The test group: no brand word, so the same under every profile. */
export const WIDGET_GROUP = 'widgets.example.com';

/** v1beta1's lifecycle: deprecated in 1.33, gone in 1.36, replaced by v1. */
export const WIDGET_V1BETA1_LIFECYCLE: ApiLifecycle = {
  deprecated: '1.33',
  removed: '1.36',
  replacement: { group: WIDGET_GROUP, version: 'v1', kind: 'Widget' },
};

/** A Widget version: namespaced, spec and status, every standard verb and /status. */
export function widgetKind(version: string, lifecycle?: ApiLifecycle): KindDefinition {
  const schema = compileKindSchema({
    group: WIDGET_GROUP,
    version,
    kind: 'Widget',
    description: 'A test kind.',
    properties: {
      spec: {
        type: 'object',
        description: 'What the widget should be.',
        properties: { size: { type: 'integer', description: 'How big.' } },
      },
      status: {
        type: 'object',
        description: 'What the widget is.',
        properties: { ready: { type: 'boolean', description: 'Whether it is ready.' } },
      },
    },
  });
  return {
    resource: {
      group: WIDGET_GROUP,
      version,
      resource: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      namespaced: true,
      verbs: STANDARD_VERBS,
      subresources: { status: ['get', 'update', 'patch'] },
    },
    schema,
    strategy: {
      namespaced: true,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: true,
      tracksGeneration: false,
      hasStatus: true,
      returnDeletedObject: false,
      validateName: nameIsDNSSubdomain,
      validate: () => [],
      validateUpdate: () => [],
    },
    ...(lifecycle === undefined ? {} : { lifecycle }),
  };
}

/** Widgets v1beta1 (deprecated), v1 (not) and v1beta2 (deprecated only from 1.99 on). */
export function widgetKinds(): KindDefinition[] {
  return [
    widgetKind('v1beta1', WIDGET_V1BETA1_LIFECYCLE),
    widgetKind('v1'),
    widgetKind('v1beta2', {
      deprecated: '1.99',
      replacement: { group: WIDGET_GROUP, version: 'v1', kind: 'Widget' },
    }),
  ];
}

export interface KindsServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  metrics: MetricsRegistry;
  /** The context of every request, in arrival order (audit annotations are read from here). */
  contexts: RequestContext[];
  stop(): Promise<void>;
}

/** Serves `kinds` on 127.0.0.1 (a free port) over cleartext HTTP/2 with the server's routes. */
export async function startKindsServer(
  kinds: KindDefinition[],
  opts: { featureGates?: Record<string, boolean>; log?: (line: string) => void } = {},
): Promise<KindsServer> {
  const profile = namingProfile('spec');
  const storage = openSqliteStorage({ path: ':memory:' });
  const metrics = new MetricsRegistry();
  const gate = featureGates(opts.featureGates);
  // As the server prepares its kinds: declarative validation compares where a kind declares rules.
  const log = opts.log ?? (() => {});
  const served = new ServedResources(
    withDeclarativeValidation(kinds, { gate, metrics, log }),
    storage,
    profile,
  );
  const env: HandlerEnv = {
    profile,
    metaGroups: [groupName(profile, 'meta'), UPSTREAM_ALIASES.metaGroup],
    served,
    codecs: serverCodecs(profile, served, false),
    admission: new AdmissionChain([]),
    gate,
    minRequestTimeoutSeconds: 1800,
    metrics,
  };
  const none = async () => undefined;
  const router = buildRouter({
    env,
    discoveryGroups: [groupName(profile, 'apidiscovery'), UPSTREAM_ALIASES.discoveryGroup],
    openapi: { v2: none, v3Index: none, v3: none },
    health: { livez: [], readyz: [], healthz: [] },
    version: {},
    serverAddress: () => '',
    metrics: new RequestMetrics(metrics),
  });
  const contexts: RequestContext[] = [];
  const closing = new AbortController();
  const server = http2.createServer((req: Http2ServerRequest, res: Http2ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const ctx: RequestContext = {
      req,
      res,
      method: req.method ?? 'GET',
      url,
      query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
      info: resolveGroupAlias(parseRequestInfo(req.method ?? 'GET', url), served.groupAliases),
      user: { username: 'admin', groups: ['system:masters'] },
      warnings: [],
      signal: closing.signal,
    };
    contexts.push(ctx);
    router(ctx).catch((err) => writeError(ctx, err));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    metrics,
    contexts,
    async stop() {
      closing.abort();
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await storage.close();
    },
  };
}

export interface H2Reply {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

/** One request over a fresh cleartext HTTP/2 session. */
export async function h2Request(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<H2Reply> {
  const session = http2.connect(base);
  try {
    const req = session.request({
      ':method': method,
      ':path': path,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    });
    req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
    const [responseHeaders] = (await once(req, 'response')) as [http2.IncomingHttpHeaders];
    let text = '';
    req.setEncoding('utf8');
    for await (const chunk of req) text += chunk;
    return { status: Number(responseHeaders[':status']), headers: responseHeaders, body: text };
  } finally {
    session.close();
  }
}

/** The Warning header values of a reply as sent (`299 - "text"`), in order. */
export function warningValues(r: H2Reply): string[] {
  const w = r.headers.warning;
  if (w === undefined) return [];
  // Repeated headers arrive joined with commas; each value starts with its three-digit code.
  return (Array.isArray(w) ? w : w.split(/,(?=\s*\d{3} )/)).map((v) => v.trim());
}
