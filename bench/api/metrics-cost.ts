// What request metrics cost a request, timed on their own: RequestMetrics.begin and end for a get of
// one ConfigMap answered 200 (the observability scenario's get), in this process, against a fresh
// registry. Each iteration gets a fresh response object, as a server's requests do, so begin()'s
// byte counting arms itself every time. The figure is read against a get's server CPU: the
// throughput comparison with metrics short-circuited cannot resolve a few percent on a shared
// machine, this can.

import { performance } from 'node:perf_hooks';
import { MetricsRegistry } from '../../src/machinery/metrics/index.ts';
import type { RequestContext } from '../../src/server/context.ts';
import { RequestMetrics } from '../../src/server/metrics/request-metrics.ts';
import { parseRequestInfo } from '../../src/server/request-info.ts';

/** A get's context with the fields begin and end read; the rest of a request is not needed. */
function getContext(url: string): RequestContext {
  // A stand-in for the request and response: metrics read the method, headers and status, and
  // wrap write/end; building real HTTP/2 objects would time their construction instead.
  return {
    req: { headers: {} },
    res: freshResponse(),
    method: 'GET',
    url,
    query: new URLSearchParams(),
    info: parseRequestInfo('GET', url),
    warnings: [],
    signal: new AbortController().signal,
  } as unknown as RequestContext;
}

export interface MetricsCost {
  /** Nanoseconds begin() and end() add to a request (the response's write through the counter included). */
  nsPerRequest: number;
  /** The same loop's nanoseconds per iteration with metrics, and without them (the subtracted part). */
  nsWith: number;
  nsWithout: number;
  iterations: number;
}

/**
 * Times `iterations` requests' worth of begin/end in batches after a warm-up, against the same loop
 * without them (a fresh response, the clock read and the response's end, which a server does
 * anyway); the difference of the median batches.
 */
export function requestMetricsCost(iterations = 200_000, batches = 9): MetricsCost {
  const metrics = new RequestMetrics(new MetricsRegistry());
  const urls = Array.from({ length: 64 }, (_, i) => `/api/v1/namespaces/bench/configmaps/g-${i}`);
  // Contexts are built outside the timed loop: the server builds its own whether metrics are on or
  // not. Their responses are replaced each pass so byte counting arms a fresh object each time.
  const contexts = urls.map(getContext);
  const pass = (n: number, withMetrics: boolean) => {
    for (let i = 0; i < n; i++) {
      const ctx = contexts[i & 63];
      ctx.res = freshResponse();
      const started = performance.now();
      const kind = withMetrics ? metrics.begin(ctx) : 0;
      (ctx.res as unknown as { end(chunk: string): void }).end(BODY);
      if (withMetrics) metrics.end(ctx, kind, started);
    }
  };
  pass(Math.min(iterations, 50_000), true);
  pass(Math.min(iterations, 50_000), false);
  const per = Math.max(1, Math.floor(iterations / batches));
  const withCosts: number[] = [];
  const withoutCosts: number[] = [];
  // Alternating batches, so a slow spell of the machine lands on both.
  for (let b = 0; b < batches; b++) {
    for (const on of [true, false]) {
      const t0 = process.hrtime.bigint();
      pass(per, on);
      (on ? withCosts : withoutCosts).push(Number(process.hrtime.bigint() - t0) / per);
    }
  }
  const nsWith = medianOf(withCosts);
  const nsWithout = medianOf(withoutCosts);
  return { nsPerRequest: Math.max(0, nsWith - nsWithout), nsWith, nsWithout, iterations: per * batches };
}

const BODY = '{"kind":"ConfigMap","apiVersion":"v1"}';

function freshResponse(): RequestContext['res'] {
  return { statusCode: 200, write: () => true, end: () => undefined } as unknown as RequestContext['res'];
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
