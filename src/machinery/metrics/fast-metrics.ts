// A counter and a histogram whose series are plain mutable records: the hot path adds to a
// number. prom-client's own children hash and validate their labels on every call, which cost
// more than the rest of a request's bookkeeping; these render through the same registry (they
// answer get() in the shape prom-client's metrics do), so the exposition text is prom-client's.

import type { Registry } from 'prom-client';
import type { MetricsRegistry } from './registry.ts';
import type { StabilityOpts } from './stability.ts';

type Labels = Record<string, string>;

interface Value {
  labels: Labels;
  value: number;
  metricName?: string;
}

interface Rendered {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Value[];
}

function labelsOf(names: readonly string[], values: readonly string[]): Labels {
  const labels: Labels = {};
  for (let i = 0; i < names.length; i++) labels[names[i]] = values[i];
  return labels;
}

/** Hands the metric to the registries, which only call name, get() and reset() on it. */
function register(registries: Registry[], metric: { name: string; get(): Promise<Rendered>; reset(): void }) {
  // biome-ignore lint/suspicious/noExplicitAny: the registry's type names prom-client's classes, whose interface this meets.
  for (const r of registries) r.registerMetric(metric as any);
}

/** What both fast metrics are defined with: name, description, stability class, label names. */
export interface FastMetricOpts extends StabilityOpts {
  name: string;
  help: string;
  labelNames: readonly string[];
}

export interface CounterSeries {
  labels: Labels;
  value: number;
}

export class FastCounter {
  readonly type = 'counter';
  private readonly all: CounterSeries[] = [];

  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly string[];

  constructor(opts: FastMetricOpts, registry: MetricsRegistry) {
    this.name = opts.name;
    this.help = registry.help(opts);
    this.labelNames = opts.labelNames;
    register(registry.registers(opts), this);
  }

  /** A new series; the caller keeps it (and adds to its value) for as long as the label values hold. */
  series(...values: string[]): CounterSeries {
    const s = { labels: labelsOf(this.labelNames, values), value: 0 };
    this.all.push(s);
    return s;
  }

  async get(): Promise<Rendered> {
    return {
      name: this.name,
      help: this.help,
      type: 'counter',
      aggregator: 'sum',
      values: this.all.map((s) => ({ labels: s.labels, value: s.value })),
    };
  }

  reset(): void {
    for (const s of this.all) s.value = 0;
  }
}

export interface HistogramSeries {
  labels: Labels;
  /** Observations per bucket, not cumulative (the last slot is above every bound). */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class FastHistogram {
  readonly type = 'histogram';
  private readonly all: HistogramSeries[] = [];

  readonly name: string;
  readonly help: string;
  readonly buckets: readonly number[];
  private readonly labelNames: readonly string[];

  constructor(opts: FastMetricOpts & { buckets: readonly number[] }, registry: MetricsRegistry) {
    this.name = opts.name;
    this.help = registry.help(opts);
    this.labelNames = opts.labelNames;
    this.buckets = opts.buckets;
    register(registry.registers(opts), this);
  }

  series(...values: string[]): HistogramSeries {
    const s = {
      labels: labelsOf(this.labelNames, values),
      counts: new Float64Array(this.buckets.length + 1),
      sum: 0,
      count: 0,
    };
    this.all.push(s);
    return s;
  }

  observe(s: HistogramSeries, v: number): void {
    const b = this.buckets;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    s.counts[i]++;
    s.sum += v;
    s.count++;
  }

  async get(): Promise<Rendered> {
    const values: Value[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const s of this.all) {
      let cumulative = 0;
      for (let i = 0; i <= this.buckets.length; i++) {
        cumulative += s.counts[i];
        const le = i < this.buckets.length ? String(this.buckets[i]) : '+Inf';
        values.push({ metricName: bucketName, labels: { ...s.labels, le }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: 'histogram', aggregator: 'sum', values };
  }

  reset(): void {
    for (const s of this.all) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}
