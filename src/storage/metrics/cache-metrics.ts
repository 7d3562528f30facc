// The watch cache's metrics as kube-apiserver 1.35 names them (upstream's apiserver library,
// storage/cacher/metrics), by group and resource. Upstream runs one cache per resource; ours is
// one cache for all, so each event's resource is read from its key (resource-of.ts). A resource
// counts as initialized when the cache has listed it: at the cache's (re)start for the resources it
// held then, and when its first object arrives for the others.

import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import { type CounterSeries, FastCounter } from '../../machinery/metrics/index.ts';
import type { GroupResource, ResourceOfKey } from './resource-of.ts';

const GR_LABELS = ['group', 'resource'] as const;

interface CacheSeries {
  received: CounterSeries;
  dispatched: CounterSeries;
  /** The encoded size of the resource's objects in the cache. */
  bytes: number;
}

/** What the watch cache calls; every method is cheap enough to run per event. */
export interface WatchCacheHooks {
  /** The cache's revision, read at scrape time. */
  attach(revision: () => number): void;
  /** The cache starts (or restarts) from a fresh list of everything. */
  starting(): void;
  /** An object the cache loaded from that list, of `bytes` encoded. */
  loaded(key: string, bytes: number): void;
  /** The initial list is in: every resource loaded so far is initialized. */
  initialized(): void;
  /** A change the cache took from its feed and handed to its watchers; `bytes` is how much the
   * resource's objects grew by (negative when they shrank). */
  event(key: string, bytes: number): void;
  /** A watcher of `prefix` was cut off for falling too far behind. */
  terminated(prefix: string): void;
}

export class WatchCacheMetrics implements WatchCacheHooks {
  private readonly received: FastCounter;
  private readonly dispatched: FastCounter;
  private readonly initCounter: FastCounter;
  private readonly terminatedCounter: FastCounter;
  private readonly terminatedCounts = new Map<GroupResource, CounterSeries>();
  private readonly byResource = new Map<GroupResource, CacheSeries>();
  private readonly initCounts = new Map<GroupResource, CounterSeries>();
  private revision: () => number = () => 0;
  private ready = false;

  constructor(
    registry: MetricsRegistry,
    private readonly resources: ResourceOfKey,
  ) {
    this.received = new FastCounter(
      {
        name: 'apiserver_watch_cache_events_received_total',
        help: 'Counter of events received in watch cache broken by resource type.',
        labelNames: GR_LABELS,
      },
      registry,
    );
    this.dispatched = new FastCounter(
      {
        name: 'apiserver_watch_cache_events_dispatched_total',
        help: 'Counter of events dispatched in watch cache broken by resource type.',
        labelNames: GR_LABELS,
      },
      registry,
    );
    this.initCounter = new FastCounter(
      {
        name: 'apiserver_watch_cache_initializations_total',
        help: 'Counter of watch cache initializations broken by resource type.',
        labelNames: GR_LABELS,
      },
      registry,
    );
    this.terminatedCounter = new FastCounter(
      {
        name: 'apiserver_terminated_watchers_total',
        help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
        labelNames: GR_LABELS,
      },
      registry,
    );
    const metrics = this;
    // Upstream (SizeBasedListCostEstimate, on by default since 1.34) estimates from the sizes its
    // lists observed; the cache here knows every object's encoded size, so the sum is exact.
    registry.gauge({
      name: 'apiserver_resource_size_estimate_bytes',
      help: 'Estimated size of stored objects in database. Estimate is based on sum of last observed sizes of serialized objects. In case of a fetching error, the value will be -1.',
      labelNames: GR_LABELS,
      collect() {
        for (const [gr, s] of metrics.byResource)
          this.set({ group: gr.group, resource: gr.resource }, s.bytes);
      },
    });
    registry.gauge({
      name: 'apiserver_watch_cache_resource_version',
      help: 'Current resource version of watch cache broken by resource type.',
      labelNames: GR_LABELS,
      // One revision for every resource: the cache follows them all in one feed.
      collect() {
        const rv = metrics.revision();
        for (const gr of metrics.byResource.keys()) this.set({ group: gr.group, resource: gr.resource }, rv);
      },
    });
  }

  attach(revision: () => number): void {
    this.revision = revision;
  }

  private seriesOf(gr: GroupResource): CacheSeries {
    let s = this.byResource.get(gr);
    if (s === undefined) {
      s = {
        received: this.received.series(gr.group, gr.resource),
        dispatched: this.dispatched.series(gr.group, gr.resource),
        bytes: 0,
      };
      this.byResource.set(gr, s);
      // A resource first seen after the cache started is initialized as its first object arrives.
      if (this.ready) this.initialize(gr);
    }
    return s;
  }

  private initialize(gr: GroupResource): void {
    let c = this.initCounts.get(gr);
    if (c === undefined) {
      c = this.initCounter.series(gr.group, gr.resource);
      this.initCounts.set(gr, c);
    }
    c.value++;
  }

  starting(): void {
    this.ready = false;
    for (const s of this.byResource.values()) s.bytes = 0;
  }

  loaded(key: string, bytes: number): void {
    const gr = this.resources.of(key);
    if (gr.resource !== '') this.seriesOf(gr).bytes += bytes;
  }

  initialized(): void {
    this.ready = true;
    for (const gr of this.byResource.keys()) this.initialize(gr);
  }

  event(key: string, bytes: number): void {
    const gr = this.resources.of(key);
    if (gr.resource === '') return;
    const s = this.seriesOf(gr);
    s.received.value++;
    s.dispatched.value++;
    s.bytes += bytes;
  }

  terminated(prefix: string): void {
    const gr = this.resources.of(prefix);
    let c = this.terminatedCounts.get(gr);
    if (c === undefined) {
      c = this.terminatedCounter.series(gr.group, gr.resource);
      this.terminatedCounts.set(gr, c);
    }
    c.value++;
  }
}
