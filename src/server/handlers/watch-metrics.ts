// apiserver_watch_events_total and apiserver_watch_events_sizes as kube-apiserver 1.35 records
// them: every event written to a watch client (bookmarks included), by the group, version and
// resource the client watches, with the event's encoded size. A watch finds its series once, when
// it starts; each event then costs an addition and a bucket search.

import {
  type CounterSeries,
  exponentialBuckets,
  FastCounter,
  FastHistogram,
  type HistogramSeries,
  type MetricsRegistry,
} from '../../machinery/metrics/index.ts';

/** 1 KiB to 128 KiB, as upstream's ExponentialBuckets(1024, 2.0, 8). */
export const WATCH_EVENT_SIZE_BUCKETS = exponentialBuckets(1024, 2, 8);

const LABELS = ['group', 'version', 'resource'] as const;

/** One watched resource's series, shared by every watch of it. */
export class WatchEventSeries {
  constructor(
    private readonly sizes: FastHistogram,
    private readonly total: CounterSeries,
    private readonly size: HistogramSeries,
  ) {}

  /** One event written, of `chunk`'s bytes. */
  record(chunk: string | Buffer): void {
    this.total.value++;
    this.sizes.observe(this.size, typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length);
  }
}

export class WatchEventMetrics {
  private readonly total: FastCounter;
  private readonly sizes: FastHistogram;
  private readonly series = new Map<string, WatchEventSeries>();

  constructor(registry: MetricsRegistry) {
    this.total = new FastCounter(
      {
        name: 'apiserver_watch_events_total',
        help: 'Number of events sent in watch clients',
        labelNames: LABELS,
      },
      registry,
    );
    this.sizes = new FastHistogram(
      {
        name: 'apiserver_watch_events_sizes',
        help: 'Watch event size distribution in bytes',
        labelNames: LABELS,
        buckets: WATCH_EVENT_SIZE_BUCKETS,
      },
      registry,
    );
  }

  /** The series of a watched resource; made by its first watch. */
  of(group: string, version: string, resource: string): WatchEventSeries {
    const id = `${group}/${version}/${resource}`;
    let s = this.series.get(id);
    if (s === undefined) {
      s = new WatchEventSeries(
        this.sizes,
        this.total.series(group, version, resource),
        this.sizes.series(group, version, resource),
      );
      this.series.set(id, s);
    }
    return s;
  }
}

/** Each registry's watch event metrics, defined in it by the first watch (or by the server at start). */
const byRegistry = new WeakMap<MetricsRegistry, WatchEventMetrics>();

export function watchEventMetrics(registry: MetricsRegistry): WatchEventMetrics {
  let m = byRegistry.get(registry);
  if (m === undefined) {
    m = new WatchEventMetrics(registry);
    byRegistry.set(registry, m);
  }
  return m;
}
