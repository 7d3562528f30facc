// The work queues' metrics in the controller manager's registry: component-base's workqueue
// provider (metrics/prometheus/workqueue) with its names, help texts, ALPHA class, `name` label and
// exponential buckets from 10 ns. Series are kept per queue name and shared by queues of one name;
// the unfinished-work gauges are sampled from the live queues when scraped.

import type {
  CounterMetric,
  GaugeMetric,
  HistogramMetric,
  UnfinishedWork,
  WorkQueueMetricsProvider,
} from '../../../client/work-queue/metrics.ts';
import {
  type CounterSeries,
  exponentialBuckets,
  FastCounter,
  FastHistogram,
  type HistogramSeries,
  type MetricsRegistry,
} from '../../../machinery/metrics/index.ts';
import { FastGauge, type GaugeSeries } from './fast-gauge.ts';

/** prometheus.ExponentialBuckets(10e-9, 10, 10): 10 ns to 10 s. */
export const WORKQUEUE_BUCKETS = exponentialBuckets(10e-9, 10, 10);

const NAME = ['name'] as const;

export class WorkQueueMetrics implements WorkQueueMetricsProvider {
  private readonly depth: FastGauge;
  private readonly adds: FastCounter;
  private readonly latency: FastHistogram;
  private readonly workDuration: FastHistogram;
  private readonly unfinished: FastGauge;
  private readonly longest: FastGauge;
  private readonly retries: FastCounter;

  private readonly depthOf = new Map<string, GaugeSeries>();
  private readonly addsOf = new Map<string, CounterSeries>();
  private readonly latencyOf = new Map<string, HistogramSeries>();
  private readonly workOf = new Map<string, HistogramSeries>();
  private readonly retriesOf = new Map<string, CounterSeries>();
  private readonly unfinishedOf = new Map<string, { total: GaugeSeries; longest: GaugeSeries }>();
  private readonly samplers = new Map<string, Set<() => UnfinishedWork>>();

  constructor(registry: MetricsRegistry) {
    this.depth = new FastGauge(
      { name: 'workqueue_depth', help: 'Current depth of workqueue', stability: 'ALPHA', labelNames: NAME },
      registry,
    );
    this.adds = new FastCounter(
      {
        name: 'workqueue_adds_total',
        help: 'Total number of adds handled by workqueue',
        stability: 'ALPHA',
        labelNames: NAME,
      },
      registry,
    );
    this.latency = new FastHistogram(
      {
        name: 'workqueue_queue_duration_seconds',
        help: 'How long in seconds an item stays in workqueue before being requested.',
        stability: 'ALPHA',
        labelNames: NAME,
        buckets: WORKQUEUE_BUCKETS,
      },
      registry,
    );
    this.workDuration = new FastHistogram(
      {
        name: 'workqueue_work_duration_seconds',
        help: 'How long in seconds processing an item from workqueue takes.',
        stability: 'ALPHA',
        labelNames: NAME,
        buckets: WORKQUEUE_BUCKETS,
      },
      registry,
    );
    const refresh = () => this.sample();
    this.unfinished = new FastGauge(
      {
        name: 'workqueue_unfinished_work_seconds',
        help:
          "How many seconds of work has done that is in progress and hasn't been observed by work_duration. " +
          'Large values indicate stuck threads. One can deduce the number of stuck threads by observing ' +
          'the rate at which this increases.',
        stability: 'ALPHA',
        labelNames: NAME,
      },
      registry,
      refresh,
    );
    this.longest = new FastGauge(
      {
        name: 'workqueue_longest_running_processor_seconds',
        help: 'How many seconds has the longest running processor for workqueue been running.',
        stability: 'ALPHA',
        labelNames: NAME,
      },
      registry,
      refresh,
    );
    this.retries = new FastCounter(
      {
        name: 'workqueue_retries_total',
        help: 'Total number of retries handled by workqueue',
        stability: 'ALPHA',
        labelNames: NAME,
      },
      registry,
    );
  }

  newDepthMetric(name: string): GaugeMetric {
    const s = once(this.depthOf, name, () => this.depth.series(name));
    return {
      inc: () => {
        s.value++;
      },
      dec: () => {
        s.value--;
      },
    };
  }

  newAddsMetric(name: string): CounterMetric {
    return counter(once(this.addsOf, name, () => this.adds.series(name)));
  }

  newLatencyMetric(name: string): HistogramMetric {
    const s = once(this.latencyOf, name, () => this.latency.series(name));
    return { observe: (v) => this.latency.observe(s, v) };
  }

  newWorkDurationMetric(name: string): HistogramMetric {
    const s = once(this.workOf, name, () => this.workDuration.series(name));
    return { observe: (v) => this.workDuration.observe(s, v) };
  }

  newRetriesMetric(name: string): CounterMetric {
    return counter(once(this.retriesOf, name, () => this.retries.series(name)));
  }

  trackUnfinishedWork(name: string, sample: () => UnfinishedWork): () => void {
    once(this.unfinishedOf, name, () => ({
      total: this.unfinished.series(name),
      longest: this.longest.series(name),
    }));
    const set = once(this.samplers, name, () => new Set<() => UnfinishedWork>());
    set.add(sample);
    return () => {
      set.delete(sample);
    };
  }

  /**
   * Sets both gauges of every name that still has a live queue: summed over its queues, and the
   * oldest of them. A name whose queues all shut down keeps its last values, as upstream's stop
   * updating once a queue shuts down.
   */
  private sample(): void {
    for (const [name, set] of this.samplers) {
      if (set.size === 0) continue;
      let total = 0;
      let oldest = 0;
      for (const s of set) {
        const w = s();
        total += w.totalSeconds;
        if (w.oldestSeconds > oldest) oldest = w.oldestSeconds;
      }
      const series = this.unfinishedOf.get(name);
      if (series === undefined) continue;
      series.total.value = total;
      series.longest.value = oldest;
    }
  }
}

function once<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

function counter(s: CounterSeries): CounterMetric {
  return {
    inc: () => {
      s.value++;
    },
  };
}
