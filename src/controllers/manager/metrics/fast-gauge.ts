// A gauge whose series are plain mutable records, beside machinery/metrics/fast-metrics.ts's counter
// and histogram: a work queue moves its depth on every add and get, and prom-client's own children
// hash their labels on every call. An optional refresh runs before each scrape, for values that
// are sampled rather than kept (the queues' unfinished work).

import type { Registry } from 'prom-client';
import type { FastMetricOpts, MetricsRegistry } from '../../../machinery/metrics/index.ts';

type Labels = Record<string, string>;

export interface GaugeSeries {
  labels: Labels;
  value: number;
}

interface Rendered {
  name: string;
  help: string;
  type: 'gauge';
  aggregator: 'sum';
  values: { labels: Labels; value: number }[];
}

export class FastGauge {
  readonly type = 'gauge';
  readonly name: string;
  readonly help: string;
  private readonly all: GaugeSeries[] = [];
  private readonly labelNames: readonly string[];

  constructor(
    opts: FastMetricOpts,
    registry: MetricsRegistry,
    private readonly refresh?: () => void,
  ) {
    this.name = opts.name;
    this.help = registry.help(opts);
    this.labelNames = opts.labelNames;
    const registries: Registry[] = registry.registers(opts);
    // biome-ignore lint/suspicious/noExplicitAny: the registry's type names prom-client's classes; it only calls name, get() and reset().
    for (const r of registries) r.registerMetric(this as any);
  }

  /** A new series at 0; the caller keeps it and writes its value. */
  series(...values: string[]): GaugeSeries {
    const labels: Labels = {};
    for (let i = 0; i < this.labelNames.length; i++) labels[this.labelNames[i]] = values[i];
    const s = { labels, value: 0 };
    this.all.push(s);
    return s;
  }

  async get(): Promise<Rendered> {
    this.refresh?.();
    return {
      name: this.name,
      help: this.help,
      type: 'gauge',
      aggregator: 'sum',
      values: this.all.map((s) => ({ labels: s.labels, value: s.value })),
    };
  }

  reset(): void {
    for (const s of this.all) s.value = 0;
  }
}
