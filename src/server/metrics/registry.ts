// One Prometheus registry per API server instance, holding the request metrics under upstream's
// names, help texts, label sets and buckets; prom-client's process and Node.js metrics live in one
// registry per process beside them.
// Tests run many servers in one process, so nothing here touches prom-client's global registry.

import { collectDefaultMetrics, type Gauge, Registry } from 'prom-client';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { FastCounter, FastHistogram } from '../../machinery/metrics/index.ts';

/** Upstream's latency buckets for the request duration histogram (seconds). */
export const REQUEST_DURATION_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

/** 1000 bytes to 10^9 bytes, a factor of ten apart: seven buckets, as upstream counts them. */
export const RESPONSE_SIZE_BUCKETS = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

const REQUEST_LABELS = [
  'verb',
  'dry_run',
  'group',
  'version',
  'resource',
  'subresource',
  'scope',
  'component',
];
const RESOURCE_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];

export interface ApiServerMetrics {
  /** The server's registry: every layer (storage, authentication, admission, ...) defines its metrics here. */
  registry: MetricsRegistry;
  requestTotal: FastCounter;
  requestDuration: FastHistogram;
  responseSizes: FastHistogram;
  longRunning: Gauge;
  inflight: Gauge;
}

/**
 * Defines the request metrics in `registry`. `inflightHighWater` is read at each scrape: upstream
 * reports the most requests in flight over the last window rather than the instant value.
 */
export function createApiServerMetrics(
  registry: MetricsRegistry,
  inflightHighWater: () => { readOnly: number; mutating: number },
): ApiServerMetrics {
  const requestTotal = new FastCounter(
    {
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      stability: 'STABLE',
      labelNames: [...REQUEST_LABELS, 'code'],
    },
    registry,
  );
  const requestDuration = new FastHistogram(
    {
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      stability: 'STABLE',
      labelNames: REQUEST_LABELS,
      buckets: REQUEST_DURATION_BUCKETS,
    },
    registry,
  );
  const responseSizes = new FastHistogram(
    {
      name: 'apiserver_response_sizes',
      help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      stability: 'STABLE',
      labelNames: RESOURCE_LABELS,
      buckets: RESPONSE_SIZE_BUCKETS,
    },
    registry,
  );
  const longRunning = registry.gauge({
    name: 'apiserver_longrunning_requests',
    help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
    stability: 'STABLE',
    labelNames: RESOURCE_LABELS,
  });
  const inflight = registry.gauge({
    name: 'apiserver_current_inflight_requests',
    help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
    stability: 'STABLE',
    labelNames: ['request_kind'],
    collect() {
      const high = inflightHighWater();
      this.labels('readOnly').set(high.readOnly);
      this.labels('mutating').set(high.mutating);
    },
  });
  return { registry, requestTotal, requestDuration, responseSizes, longRunning, inflight };
}

let processMetrics: Registry | undefined;

/**
 * The process and Node.js metrics, in one registry per process: they describe the process, not
 * a server, and prom-client's collectors (event-loop delay, GC observers) cannot be stopped, so
 * making them once keeps a process that starts many servers (tests) from stacking them up.
 */
export function processMetricsRegistry(): Registry {
  if (processMetrics === undefined) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}
