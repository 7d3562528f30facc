// The admission chain: validating plugins run in order after the strategy has prepared the object;
// the first rejection ends the request. With a metrics registry the whole validating step and each
// admission controller are timed under upstream's metrics. A plugin marked `notAdmissionController`
// (a check upstream runs in a resource's storage, not in admission) is not timed as a controller,
// and a rejection of its own leaves the step unrecorded: upstream's request never reaches admission.

import type { MetricsRegistry } from '../machinery/metrics/index.ts';
import { AdmissionMetrics } from './metrics.ts';
import type { AdmissionAttributes, ValidatingPlugin } from './types.ts';

export interface AdmissionChainOptions {
  /** The server's metrics registry: step and plugin latencies and rejections are recorded there. */
  metrics?: MetricsRegistry;
}

export class AdmissionChain {
  private readonly metrics: AdmissionMetrics | undefined;

  constructor(
    readonly validating: readonly ValidatingPlugin[],
    readonly options: AdmissionChainOptions = {},
  ) {
    this.metrics = options.metrics === undefined ? undefined : new AdmissionMetrics(options.metrics);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const m = this.metrics;
    if (m === undefined) {
      for (const p of this.validating) await p.validate(a);
      return;
    }
    const stepStarted = performance.now();
    for (const p of this.validating) {
      const started = performance.now();
      try {
        await p.validate(a);
      } catch (err) {
        if (p.notAdmissionController !== true) {
          const now = performance.now();
          m.observeController(p.name, 'validate', a.operation, true, (now - started) / 1000);
          m.observeStep('validate', a.operation, true, (now - stepStarted) / 1000);
        }
        throw err;
      }
      if (p.notAdmissionController !== true) {
        m.observeController(p.name, 'validate', a.operation, false, (performance.now() - started) / 1000);
      }
    }
    m.observeStep('validate', a.operation, false, (performance.now() - stepStarted) / 1000);
  }
}
