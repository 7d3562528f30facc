// Per-request recording of the request metrics: the reported verb, scope and dry-run value as
// upstream normalises them, label children cached by their label values so that a request costs a
// string key and a map lookup, and response bytes counted for reads only (upstream sizes GET and
// LIST responses alone).

import type { Gauge } from 'prom-client';
import type { CounterSeries, HistogramSeries } from '../../machinery/metrics/index.ts';
import { MetricsRegistry } from '../../machinery/metrics/index.ts';
import type { RequestContext } from '../context.ts';
import { type ApiServerMetrics, createApiServerMetrics } from './registry.ts';

/** What begin() learnt about a request that end() needs again. */
export enum Kind {
  ReadOnly = 0,
  Mutating = 1,
  LongRunning = 2,
}

const COMPONENT = 'apiserver';

/** Verbs upstream reports as they are; any other method is `other`. */
const VALID_VERBS = new Set([
  'APPLY',
  'CONNECT',
  'CREATE',
  'DELETE',
  'DELETECOLLECTION',
  'GET',
  'LIST',
  'PATCH',
  'POST',
  'PROXY',
  'PUT',
  'UPDATE',
  'WATCH',
  'WATCHLIST',
]);

/** Sub-resources that stream a connection (reported as CONNECT, held open as long-running). */
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

/** `resource` for one object or a create, `namespace`/`cluster` for collections, empty otherwise. */
export function metricScope(ctx: RequestContext): string {
  const info = ctx.info;
  if (!info.isResourceRequest) return '';
  // The path decides, not info.name: a list narrowed by a name field selector stays a collection.
  if (info.parts.length >= 2 || info.verb === 'create') return 'resource';
  return info.namespace !== '' ? 'namespace' : 'cluster';
}

/** The verb label: the uppercase method, GET split into LIST and WATCH, PATCH by apply into APPLY. */
export function metricVerb(ctx: RequestContext, scope: string): string {
  let verb = ctx.method.toUpperCase();
  if (verb === 'GET' || verb === 'HEAD') {
    verb = scope !== 'resource' && scope !== '' ? 'LIST' : 'GET';
    const watch = ctx.query.get('watch');
    if (
      ctx.method === 'GET' &&
      watch !== null &&
      watch.toLowerCase() !== '0' &&
      watch.toLowerCase() !== 'false'
    ) {
      verb = 'WATCH';
    }
  } else if (verb === 'PATCH' && ctx.req.headers['content-type'] === 'application/apply-patch+yaml') {
    verb = 'APPLY';
  }
  const info = ctx.info;
  if (info.isResourceRequest && CONNECT_SUBRESOURCES.has(info.subresource)) verb = 'CONNECT';
  return VALID_VERBS.has(verb) ? verb : 'other';
}

/** The dry_run label: empty unless asked; the sorted distinct values, or `invalid`. */
export function metricDryRun(ctx: RequestContext): string {
  if (!ctx.url.includes('dryRun')) return '';
  const values = ctx.query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

interface Series {
  verb: string;
  duration: HistogramSeries;
  /** Present when the series' responses are sized (reads). */
  size: HistogramSeries | undefined;
  totals: Map<number, CounterSeries>;
}

export class RequestMetrics {
  readonly metrics: ApiServerMetrics;
  private readonly series = new Map<string, Series>();
  private readonly longRunning = new Map<string, Gauge.Internal<string>>();
  private readonly current = [0, 0];
  private readonly high = [0, 0];

  constructor(registry: MetricsRegistry = new MetricsRegistry()) {
    this.metrics = createApiServerMetrics(registry, () => {
      const r = { readOnly: this.high[Kind.ReadOnly], mutating: this.high[Kind.Mutating] };
      // The next window starts from what is in flight now.
      this.high[0] = this.current[0];
      this.high[1] = this.current[1];
      return r;
    });
  }

  /** Called when a request arrives: counts it in flight (or long-running) and arms byte counting. */
  begin(ctx: RequestContext): Kind {
    const info = ctx.info;
    const longRunning =
      info.verb === 'watch' || (info.isResourceRequest && CONNECT_SUBRESOURCES.has(info.subresource));
    if (longRunning) {
      this.longRunningChild(ctx).inc();
      return Kind.LongRunning;
    }
    const kind = READ_ONLY_VERBS.has(info.verb) ? Kind.ReadOnly : Kind.Mutating;
    const n = ++this.current[kind];
    if (n > this.high[kind]) this.high[kind] = n;
    if (ctx.method === 'GET' || ctx.method === 'HEAD') countBytes(ctx.res);
    return kind;
  }

  /** Called once the response has closed, with the time begin() was called (performance.now()). */
  end(ctx: RequestContext, kind: Kind, startedMs: number): void {
    if (kind === Kind.LongRunning) this.longRunningChild(ctx).dec();
    else this.current[kind]--;
    const info = ctx.info;
    const scope = metricScope(ctx);
    const dryRun = metricDryRun(ctx);
    const resource = info.isResourceRequest;
    const group = resource ? (info.pathGroup ?? info.apiGroup) : '';
    const version = resource ? info.apiVersion : '';
    const res = resource ? info.resource : '';
    const sub = resource ? info.subresource : '';
    const verb = metricVerb(ctx, scope);
    // Upstream sizes responses of the routes it registers as GET and LIST (watches on them too).
    const sized = ctx.method === 'GET' || ctx.method === 'HEAD';
    const key = `${sized ? 1 : 0}${verb}\0${dryRun}\0${group}\0${version}\0${res}\0${sub}\0${scope}`;
    let s = this.series.get(key);
    if (s === undefined) {
      const m = this.metrics;
      s = {
        verb,
        duration: m.requestDuration.series(verb, dryRun, group, version, res, sub, scope, COMPONENT),
        size: sized ? m.responseSizes.series(verb, group, version, res, sub, scope, COMPONENT) : undefined,
        totals: new Map(),
      };
      this.series.set(key, s);
    }
    const code = ctx.res.statusCode;
    let total = s.totals.get(code);
    if (total === undefined) {
      total = this.metrics.requestTotal.series(
        s.verb,
        dryRun,
        group,
        version,
        res,
        sub,
        scope,
        COMPONENT,
        String(code),
      );
      s.totals.set(code, total);
    }
    total.value++;
    const m = this.metrics;
    m.requestDuration.observe(s.duration, (performance.now() - startedMs) / 1000);
    if (s.size !== undefined) m.responseSizes.observe(s.size, bytesOf(ctx.res));
  }

  /** Long-running requests are resource requests (watches and connections) only. */
  private longRunningChild(ctx: RequestContext): Gauge.Internal<string> {
    const info = ctx.info;
    const scope = metricScope(ctx);
    const verb = metricVerb(ctx, scope);
    const group = info.pathGroup ?? info.apiGroup;
    const key = `${verb}\0${group}\0${info.apiVersion}\0${info.resource}\0${info.subresource}\0${scope}`;
    let g = this.longRunning.get(key);
    if (g === undefined) {
      g = this.metrics.longRunning.labels(
        verb,
        group,
        info.apiVersion,
        info.resource,
        info.subresource,
        scope,
        COMPONENT,
      );
      this.longRunning.set(key, g);
    }
    return g;
  }
}

// Byte counting: one shared write/end pair set on the response (no closure per request), the
// running total and the methods they stand in for kept on the response itself under symbols.
const BYTES = Symbol('responseBytes');
const WRITE = Symbol('write');
const END = Symbol('end');

type WriteFn = (this: Counted, chunk?: unknown, ...rest: unknown[]) => unknown;
type Counted = RequestContext['res'] & { [BYTES]?: number; [WRITE]?: WriteFn; [END]?: WriteFn };

function chunkBytes(chunk: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk);
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
}

function countingWrite(this: Counted, chunk?: unknown, ...rest: unknown[]): unknown {
  this[BYTES] = (this[BYTES] ?? 0) + chunkBytes(chunk);
  return (this[WRITE] as WriteFn).call(this, chunk, ...rest);
}

function countingEnd(this: Counted, chunk?: unknown, ...rest: unknown[]): unknown {
  this[BYTES] = (this[BYTES] ?? 0) + chunkBytes(chunk);
  return (this[END] as WriteFn).call(this, chunk, ...rest);
}

function countBytes(res: Counted): void {
  const methods = res as unknown as { write: WriteFn; end: WriteFn };
  res[BYTES] = 0;
  if (methods.end === countingEnd) return;
  res[WRITE] = methods.write;
  res[END] = methods.end;
  methods.write = countingWrite;
  methods.end = countingEnd;
}

function bytesOf(res: Counted): number {
  return res[BYTES] ?? 0;
}
