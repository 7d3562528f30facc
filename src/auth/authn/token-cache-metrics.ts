// The token cache's metrics under upstream's names (which have no help text upstream, so only the
// class shows): lookups by hit or miss and their latency (in whole milliseconds, as upstream
// truncates), verifications by outcome, and how many verifications are running and how many
// lookups wait for one. Children are made once: a hit is counted on every request with a token.

import type { Counter, Gauge, Histogram } from 'prom-client';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';

type CounterChild = ReturnType<Counter<'status'>['labels']>;
type GaugeChild = ReturnType<Gauge<'status'>['labels']>;
type HistogramChild = ReturnType<Histogram<'status'>['labels']>;

/** Prometheus' default buckets (upstream's histogram sets none). */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class TokenCacheMetrics {
  readonly hits: CounterChild;
  readonly misses: CounterChild;
  readonly hitLatency: HistogramChild;
  readonly missLatency: HistogramChild;
  readonly fetchedOk: CounterChild;
  readonly fetchedError: CounterChild;
  readonly inFlight: GaugeChild;
  readonly blocked: GaugeChild;

  constructor(registry: MetricsRegistry) {
    const latency = registry.histogram({
      name: 'authentication_token_cache_request_duration_seconds',
      help: '',
      stability: 'ALPHA',
      labelNames: ['status'],
      buckets: DEFAULT_BUCKETS,
    });
    const requests = registry.counter({
      name: 'authentication_token_cache_request_total',
      help: '',
      stability: 'ALPHA',
      labelNames: ['status'],
    });
    const fetches = registry.counter({
      name: 'authentication_token_cache_fetch_total',
      help: '',
      stability: 'ALPHA',
      labelNames: ['status'],
    });
    const active = registry.gauge({
      name: 'authentication_token_cache_active_fetch_count',
      help: '',
      stability: 'ALPHA',
      labelNames: ['status'],
    });
    this.hits = requests.labels('hit');
    this.misses = requests.labels('miss');
    this.hitLatency = latency.labels('hit');
    this.missLatency = latency.labels('miss');
    this.fetchedOk = fetches.labels('ok');
    this.fetchedError = fetches.labels('error');
    this.inFlight = active.labels('in_flight');
    this.blocked = active.labels('blocked');
  }

  /** Upstream observes whole milliseconds, in seconds. */
  static seconds(startedMs: number): number {
    return Math.trunc(performance.now() - startedMs) / 1000;
  }
}
