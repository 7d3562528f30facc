// One component's metrics: a prom-client Registry plus the stability rules (stability.ts) applied
// as each metric is defined. Every server and controller manager builds its own, never touching
// prom-client's global registry, so tests can run many in one process. A hidden metric is still
// made (the code recording into it need not know), only never registered, so never exposed.

import { Counter, Gauge, Histogram, Registry, Summary } from 'prom-client';
import { annotatedHelp, isHidden, type StabilityOpts, validateShowHiddenVersion } from './stability.ts';

/** The release whose metrics this build exposes; matches the API level /version reports. */
export const METRICS_VERSION = '1.35';

export interface MetricOpts<L extends string> extends StabilityOpts {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

export interface MetricsRegistryOptions {
  /** `--show-hidden-metrics-for-version`: the previous minor release, or empty. */
  showHiddenMetricsForVersion?: string;
  /** Defaults to METRICS_VERSION; tests move it to exercise deprecation. */
  currentVersion?: string;
}

export class MetricsRegistry {
  readonly registry = new Registry();
  readonly currentVersion: string;
  private readonly showHidden: boolean;

  /** Throws the upstream message when the show-hidden version is not the previous minor release. */
  constructor(opts: MetricsRegistryOptions = {}) {
    this.currentVersion = opts.currentVersion ?? METRICS_VERSION;
    const show = opts.showHiddenMetricsForVersion ?? '';
    const invalid = validateShowHiddenVersion(show, this.currentVersion);
    if (invalid !== undefined) throw new Error(invalid);
    this.showHidden = show !== '';
  }

  /** Help text as exposed, with the class and deprecation note. */
  help(opts: StabilityOpts & { help: string }): string {
    return annotatedHelp(opts.help, opts, this.currentVersion);
  }

  /** The registries a metric with these options joins: none when hidden. */
  registers(opts: StabilityOpts): Registry[] {
    return isHidden(opts, this.currentVersion, this.showHidden) ? [] : [this.registry];
  }

  counter<L extends string>(opts: MetricOpts<L>): Counter<L> {
    return new Counter<L>({
      name: opts.name,
      help: this.help(opts),
      labelNames: opts.labelNames ?? [],
      registers: this.registers(opts),
    });
  }

  gauge<L extends string>(
    opts: MetricOpts<L> & { collect?: (this: Gauge<L>) => void | Promise<void> },
  ): Gauge<L> {
    return new Gauge<L>({
      name: opts.name,
      help: this.help(opts),
      labelNames: opts.labelNames ?? [],
      registers: this.registers(opts),
      ...(opts.collect === undefined ? {} : { collect: opts.collect }),
    });
  }

  histogram<L extends string>(opts: MetricOpts<L> & { buckets: readonly number[] }): Histogram<L> {
    return new Histogram<L>({
      name: opts.name,
      help: this.help(opts),
      labelNames: opts.labelNames ?? [],
      buckets: [...opts.buckets],
      registers: this.registers(opts),
    });
  }

  summary<L extends string>(opts: MetricOpts<L> & { percentiles?: number[] }): Summary<L> {
    return new Summary<L>({
      name: opts.name,
      help: this.help(opts),
      labelNames: opts.labelNames ?? [],
      ...(opts.percentiles === undefined ? {} : { percentiles: opts.percentiles }),
      registers: this.registers(opts),
    });
  }

  /** The exposition text of this registry alone. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}

/** Exponential buckets as upstream's prometheus.ExponentialBuckets(start, factor, count). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  let v = start;
  for (let i = 0; i < count; i++) {
    out.push(v);
    v *= factor;
  }
  return out;
}
