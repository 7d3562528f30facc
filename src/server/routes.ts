// Routing after the filter chain: resource requests go to the handler of their verb; the rest are
// the discovery documents, /version, OpenAPI and the health endpoints. Unknown paths are a 404
// Status, as upstream answers them.

import { genericServerResponse } from '../machinery/status.ts';
import type { Handler, RequestContext } from './context.ts';
import {
  aggregatedDiscoveryDocument,
  apiGroupDocument,
  apiGroupListDocument,
  apiResourceListDocument,
  apiVersionsDocument,
  type GroupVersions,
  groupsOf,
} from './discovery.ts';
import { negotiateDiscovery } from './discovery-negotiation.ts';
import { type HandlerEnv, handleResource } from './handlers/index.ts';
import { evaluateAll, evaluateOne, type HealthCheck } from './health/health.ts';
import { type RequestMetrics, serveMetrics } from './metrics/index.ts';
import { serveOpenApiV2 } from './openapi/serve-v2.ts';
import { writeJson, writeText } from './respond.ts';

/** Built on first request (the generator itself loads then), so an idle server pays nothing for them. */
export interface OpenApiDocuments {
  v2(): Promise<unknown>;
  v3Index(): Promise<unknown>;
  /** The document of one group-version path (`api/v1`, `apis/<g>/<v>`); undefined when unknown. */
  v3(path: string): Promise<unknown | undefined>;
}

export interface RouteDeps {
  env: HandlerEnv;
  /** Discovery group names clients may ask for (the profile's and upstream's). */
  discoveryGroups: readonly string[];
  openapi: OpenApiDocuments;
  health: { livez: HealthCheck[]; readyz: HealthCheck[]; healthz: HealthCheck[] };
  version: Record<string, string>;
  serverAddress: () => string;
  /** The server's metrics, served at /metrics. */
  metrics?: RequestMetrics;
}

function notFoundStatus() {
  return genericServerResponse(404, 'GET', undefined, '', '');
}

export function buildRouter(deps: RouteDeps): Handler {
  const { env } = deps;
  const groups = (): GroupVersions[] => groupsOf(env.served.resources());

  const discovery = (ctx: RequestContext, legacy: () => unknown, prefix: 'api' | 'apis'): void => {
    const choice = negotiateDiscovery(ctx.req.headers.accept, deps.discoveryGroups);
    if (!choice.aggregated) {
      writeJson(ctx, 200, legacy());
      return;
    }
    const gs = groups().filter((g) => (prefix === 'api' ? g.name === '' : g.name !== ''));
    const doc = aggregatedDiscoveryDocument(`${choice.group}/${choice.version}`, gs, env.served.resources());
    writeJson(ctx, 200, doc, choice.contentType);
  };

  const health = async (ctx: RequestContext, endpoint: 'livez' | 'readyz' | 'healthz', rest: string[]) => {
    const checks = deps.health[endpoint];
    const r =
      rest.length === 0
        ? await evaluateAll(endpoint, checks, ctx.query)
        : await evaluateOne(checks, rest.join('/'));
    writeText(ctx, r.status, r.body);
  };

  return async (ctx) => {
    const info = ctx.info;
    if (info.isResourceRequest) {
      // Under an alias group the alias answers (in its group); request info names the canonical one.
      const served = env.served.lookup(info.pathGroup ?? info.apiGroup, info.apiVersion, info.resource);
      const sub = info.parts.length > 3 ? info.parts.slice(2).join('/') : info.subresource;
      if (served === undefined || (sub !== '' && served.kind.resource.subresources[sub] === undefined)) {
        throw notFoundStatus();
      }
      // A cluster-scoped resource has no route below a namespace (not even namespaces themselves).
      if (!served.kind.resource.namespaced && info.underNamespace === true) throw notFoundStatus();
      const namespace = info.resource === 'namespaces' ? '' : info.namespace;
      const name = info.resource === 'namespaces' && info.name === '' ? '' : info.name;
      await handleResource(ctx, env, { served, namespace, name, subresource: sub });
      return;
    }
    const parts = info.path.split('/').filter((p) => p !== '');
    const method = ctx.method;
    if (method !== 'GET' && method !== 'HEAD') throw notFoundStatus();
    const [head, ...rest] = parts;
    switch (head) {
      case 'livez':
      case 'readyz':
      case 'healthz':
        return health(ctx, head, rest);
      case 'version':
        if (rest.length === 0) return writeJson(ctx, 200, deps.version);
        break;
      case 'metrics':
        if (rest.length === 0 && deps.metrics !== undefined) return serveMetrics(ctx, deps.metrics);
        break;
      case 'api':
        if (rest.length === 0) return discovery(ctx, () => apiVersionsDocument(deps.serverAddress()), 'api');
        if (rest.length === 1 && env.served.servesGroupVersion('', rest[0])) {
          return writeJson(ctx, 200, apiResourceListDocument('', rest[0], env.served.resources()));
        }
        break;
      case 'apis': {
        if (rest.length === 0) return discovery(ctx, () => apiGroupListDocument(groups()), 'apis');
        const g = groups().find((x) => x.name === rest[0] && x.name !== '');
        if (g === undefined) break;
        if (rest.length === 1) return writeJson(ctx, 200, apiGroupDocument(g));
        if (rest.length === 2 && g.versions.includes(rest[1])) {
          return writeJson(ctx, 200, apiResourceListDocument(g.name, rest[1], env.served.resources()));
        }
        break;
      }
      case 'openapi': {
        // JSON or the gnostic protobuf kubectl asks for, with upstream's negotiation and ETag.
        if (rest.length === 1 && rest[0] === 'v2') return serveOpenApiV2(ctx, deps.openapi.v2);
        if (rest[0] === 'v3') {
          if (rest.length === 1) return writeJson(ctx, 200, await deps.openapi.v3Index());
          const doc = await deps.openapi.v3(rest.slice(1).join('/'));
          if (doc !== undefined) return writeJson(ctx, 200, doc);
        }
        break;
      }
    }
    throw notFoundStatus();
  };
}
