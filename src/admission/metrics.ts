// Admission metrics under upstream's names: the latency of the whole validating step and of each
// admission controller, by operation and by whether it rejected, plus the step's summary (sum and
// count only, as upstream's has no quantiles). Series are made once per label combination and
// kept: every write passes through here.

import type { Histogram, Summary } from 'prom-client';
import type { MetricsRegistry } from '../machinery/metrics/index.ts';

type HistogramChild = ReturnType<Histogram<string>['labels']>;
type SummaryChild = ReturnType<Summary<string>['labels']>;

/** Upstream's buckets for steps and controllers: 5 ms to 2.5 s. */
const BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];

/** The admission phase: `admit` (mutating) or `validate`. */
export type StepType = 'admit' | 'validate';

interface StepSeries {
  histogram: HistogramChild;
  summary: SummaryChild;
}

export class AdmissionMetrics {
  private readonly stepHistogram: Histogram<'type' | 'operation' | 'rejected'>;
  private readonly stepSummary: Summary<'type' | 'operation' | 'rejected'>;
  private readonly controller: Histogram<'name' | 'type' | 'operation' | 'rejected'>;
  private readonly steps = new Map<string, StepSeries>();
  private readonly controllers = new Map<string, HistogramChild>();

  constructor(registry: MetricsRegistry) {
    this.stepHistogram = registry.histogram({
      name: 'apiserver_admission_step_admission_duration_seconds',
      help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      stability: 'STABLE',
      labelNames: ['type', 'operation', 'rejected'],
      buckets: BUCKETS,
    });
    this.stepSummary = registry.summary({
      name: 'apiserver_admission_step_admission_duration_seconds_summary',
      help: 'Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
      stability: 'ALPHA',
      labelNames: ['type', 'operation', 'rejected'],
      percentiles: [],
    });
    this.controller = registry.histogram({
      name: 'apiserver_admission_controller_admission_duration_seconds',
      help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      stability: 'STABLE',
      labelNames: ['name', 'type', 'operation', 'rejected'],
      buckets: BUCKETS,
    });
  }

  /** A whole admission phase over one request. */
  observeStep(type: StepType, operation: string, rejected: boolean, seconds: number): void {
    const key = `${type}\u0000${operation}\u0000${rejected}`;
    let s = this.steps.get(key);
    if (s === undefined) {
      const r = String(rejected);
      s = {
        histogram: this.stepHistogram.labels(type, operation, r),
        summary: this.stepSummary.labels(type, operation, r),
      };
      this.steps.set(key, s);
    }
    s.histogram.observe(seconds);
    s.summary.observe(seconds);
  }

  /** One admission controller (plugin) on one request. */
  observeController(
    name: string,
    type: StepType,
    operation: string,
    rejected: boolean,
    seconds: number,
  ): void {
    const key = `${name}\u0000${type}\u0000${operation}\u0000${rejected}`;
    let c = this.controllers.get(key);
    if (c === undefined) {
      c = this.controller.labels(name, type, operation, String(rejected));
      this.controllers.set(key, c);
    }
    c.observe(seconds);
  }
}
