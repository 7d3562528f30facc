// The storage layer's metrics as kube-apiserver 1.35 names them (upstream's apiserver library,
// storage/etcd3/metrics): requests to the backend by operation and resource, the cost of lists
// served by the backend, object counts per resource and the database's size. Both backends report
// under etcd's names, as the metrics are what dashboards and alerts read. Request series are plain
// records (machinery's fast metrics) found without building a string: by the resolved resource's identity, then
// by operation.

import type { Gauge } from 'prom-client';
import type { MetricsRegistry } from '../../machinery/metrics/index.ts';
import {
  type CounterSeries,
  FastCounter,
  FastHistogram,
  type HistogramSeries,
} from '../../machinery/metrics/index.ts';
import type { GroupResource } from './resource-of.ts';

/** Operations as upstream's etcd3 store labels its requests. */
export const OPERATIONS = ['get', 'create', 'update', 'delete', 'list', 'listWithCount'] as const;
export type Operation = (typeof OPERATIONS)[number];
/** Indexes into OPERATIONS. */
export const Op = { Get: 0, Create: 1, Update: 2, Delete: 3, List: 4, ListWithCount: 5 } as const;
export type Op = (typeof Op)[keyof typeof Op];

/** etcd_request_duration_seconds' buckets, kept as upstream keeps them (its request latency SLO). */
export const ETCD_REQUEST_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

const REQUEST_LABELS = ['operation', 'group', 'resource'] as const;
const GR_LABELS = ['group', 'resource'] as const;

/** One operation on one resource: its duration, count and (once one happened) errors. */
interface RequestSeries {
  duration: HistogramSeries;
  total: CounterSeries;
  errors: CounterSeries | undefined;
}

interface ListSeries {
  total: CounterSeries;
  fetched: CounterSeries;
  evaluated: CounterSeries;
  returned: CounterSeries;
}

/** Where apiserver_storage_size_bytes reads the database's size from. */
export interface StorageSizeSource {
  /** Bytes the database takes; rejects when it cannot be told (the series is then left out). */
  sizeBytes(): Promise<number>;
  /** What the deprecated per-endpoint size metric names the database by. */
  readonly endpoint: string;
}

/** The storage_cluster_id upstream gives its first (and here only) storage cluster. */
export const STORAGE_CLUSTER_ID = 'etcd-0';

export class StorageMetrics {
  private readonly duration: FastHistogram;
  private readonly requests: FastCounter;
  private readonly requestErrors: FastCounter;
  private readonly listTotal: FastCounter;
  private readonly listFetched: FastCounter;
  private readonly listEvaluated: FastCounter;
  private readonly listReturned: FastCounter;
  private readonly decodeErrors: FastCounter;
  private readonly decodeErrorCounts = new Map<string, CounterSeries>();
  private readonly objects: Gauge<'resource'>;
  private readonly resourceObjects: Gauge<'group' | 'resource'>;
  /** By the resolved resource's identity, which is what a request has at hand. */
  private readonly byResource = new Map<GroupResource, RequestSeries[]>();
  private readonly byName = new Map<string, RequestSeries[]>();
  /** By `group/resource`: lists are few enough to build the name. */
  private readonly lists = new Map<string, ListSeries>();
  private sizeSource: StorageSizeSource | undefined;

  constructor(registry: MetricsRegistry) {
    const labelNames = REQUEST_LABELS;
    this.duration = new FastHistogram(
      {
        name: 'etcd_request_duration_seconds',
        help: 'Etcd request latency in seconds for each operation and object type.',
        labelNames,
        buckets: ETCD_REQUEST_BUCKETS,
      },
      registry,
    );
    this.requests = new FastCounter(
      {
        name: 'etcd_requests_total',
        help: 'Etcd request counts for each operation and object type.',
        labelNames,
      },
      registry,
    );
    this.requestErrors = new FastCounter(
      {
        name: 'etcd_request_errors_total',
        help: 'Etcd failed request counts for each operation and object type.',
        labelNames,
      },
      registry,
    );
    const listCounter = (name: string, help: string) =>
      new FastCounter({ name, help, labelNames: GR_LABELS }, registry);
    this.listTotal = listCounter(
      'apiserver_storage_list_total',
      'Number of LIST requests served from storage',
    );
    this.listFetched = listCounter(
      'apiserver_storage_list_fetched_objects_total',
      'Number of objects read from storage in the course of serving a LIST request',
    );
    this.listEvaluated = listCounter(
      'apiserver_storage_list_evaluated_objects_total',
      'Number of objects tested in the course of serving a LIST request from storage',
    );
    this.listReturned = listCounter(
      'apiserver_storage_list_returned_objects_total',
      'Number of objects returned for a LIST request from storage',
    );
    this.decodeErrors = new FastCounter(
      {
        name: 'apiserver_storage_decode_errors_total',
        help: 'Number of stored object decode errors split by object type',
        labelNames: GR_LABELS,
      },
      registry,
    );
    this.objects = registry.gauge({
      name: 'apiserver_storage_objects',
      help: '[DEPRECATED, consider using apiserver_resource_objects instead] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      stability: 'STABLE',
      deprecatedVersion: '1.34.0',
      labelNames: ['resource'],
    });
    this.resourceObjects = registry.gauge({
      name: 'apiserver_resource_objects',
      help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      labelNames: GR_LABELS,
    });
    const metrics = this;
    registry.gauge({
      name: 'apiserver_storage_size_bytes',
      help: 'Size of the storage database file physically allocated in bytes.',
      stability: 'STABLE',
      labelNames: ['storage_cluster_id'],
      // Read at scrape time, as upstream's collector asks etcd's status then; a failed read leaves
      // the series out rather than reporting a stale size.
      async collect() {
        this.reset();
        const size = await metrics.readSize();
        if (size !== undefined) this.set({ storage_cluster_id: STORAGE_CLUSTER_ID }, size);
      },
    });
    registry.gauge({
      name: 'apiserver_storage_db_total_size_in_bytes',
      help: 'Total size of the storage database file physically allocated in bytes.',
      deprecatedVersion: '1.28.0',
      labelNames: ['endpoint'],
      async collect() {
        this.reset();
        const source = metrics.sizeSource;
        if (source === undefined) return;
        // Upstream reports -1 for an endpoint whose status cannot be read.
        this.set({ endpoint: source.endpoint }, (await metrics.readSize()) ?? -1);
      },
    });
  }

  /** The database whose size the size metrics report. */
  setSizeSource(source: StorageSizeSource | undefined): void {
    this.sizeSource = source;
  }

  private async readSize(): Promise<number | undefined> {
    try {
      return await this.sizeSource?.sizeBytes();
    } catch {
      return undefined;
    }
  }

  /** The series of one operation on one resource; made on its first request. */
  request(gr: GroupResource, op: Op): RequestSeries {
    let ops = this.byResource.get(gr);
    if (ops === undefined) {
      // Another object naming the same resource (from another resolver) shares its series.
      const name = `${gr.group}/${gr.resource}`;
      ops = this.byName.get(name);
      if (ops === undefined) {
        ops = [];
        this.byName.set(name, ops);
      }
      this.byResource.set(gr, ops);
    }
    let s = ops[op];
    if (s === undefined) {
      const name = OPERATIONS[op];
      s = {
        duration: this.duration.series(name, gr.group, gr.resource),
        total: this.requests.series(name, gr.group, gr.resource),
        errors: undefined,
      };
      ops[op] = s;
    }
    return s;
  }

  /** Records one request: its duration in seconds, and whether the backend failed it. */
  record(gr: GroupResource, op: Op, seconds: number, failed: boolean): void {
    const s = this.request(gr, op);
    this.duration.observe(s.duration, seconds);
    s.total.value++;
    if (failed) {
      s.errors ??= this.requestErrors.series(OPERATIONS[op], gr.group, gr.resource);
      s.errors.value++;
    }
  }

  /** Records what serving one list from the backend cost. */
  recordList(gr: GroupResource, fetched: number, evaluated: number, returned: number): void {
    const name = `${gr.group}/${gr.resource}`;
    let s = this.lists.get(name);
    if (s === undefined) {
      s = {
        total: this.listTotal.series(gr.group, gr.resource),
        fetched: this.listFetched.series(gr.group, gr.resource),
        evaluated: this.listEvaluated.series(gr.group, gr.resource),
        returned: this.listReturned.series(gr.group, gr.resource),
      };
      this.lists.set(name, s);
    }
    s.total.value++;
    s.fetched.value += fetched;
    s.evaluated.value += evaluated;
    s.returned.value += returned;
  }

  /** A stored object of the resource failed to decode. */
  recordDecodeError(gr: GroupResource): void {
    const name = `${gr.group}/${gr.resource}`;
    let c = this.decodeErrorCounts.get(name);
    if (c === undefined) {
      c = this.decodeErrors.series(gr.group, gr.resource);
      this.decodeErrorCounts.set(name, c);
    }
    c.value++;
  }

  /** Sets a resource's object count; -1 says the count failed, as upstream reports it. */
  setObjectCount(gr: GroupResource, count: number): void {
    // The deprecated gauge names the resource as upstream's GroupResource.String() does.
    this.objects.set({ resource: gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}` }, count);
    this.resourceObjects.set({ group: gr.group, resource: gr.resource }, count);
  }
}
