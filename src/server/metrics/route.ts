// GET /metrics: the server's registry in the Prometheus text exposition format. Authorization
// already ran (a non-resource URL, `get` on `/metrics`), so this only renders.

import type { RequestContext } from '../context.ts';
import { responseGone } from '../respond.ts';
import { processMetricsRegistry } from './registry.ts';
import type { RequestMetrics } from './request-metrics.ts';

export async function serveMetrics(ctx: RequestContext, metrics: RequestMetrics): Promise<void> {
  const registry = metrics.metrics.registry.registry;
  const text = `${await registry.metrics()}\n${await processMetricsRegistry().metrics()}`;
  if (ctx.res.headersSent || responseGone(ctx.res)) return;
  ctx.res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-cache, private' });
  if (ctx.method === 'HEAD') ctx.res.end();
  else ctx.res.end(text);
}
