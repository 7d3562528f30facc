// The admission chain: validating plugins run in order after the strategy has prepared the object;
// the first rejection ends the request.

import type { MetricsRegistry } from '../machinery/metrics/index.ts';
import type { AdmissionAttributes, ValidatingPlugin } from './types.ts';

export interface AdmissionChainOptions {
  /** The server's metrics registry: step and plugin latencies and rejections are recorded there. */
  metrics?: MetricsRegistry;
}

export class AdmissionChain {
  constructor(
    readonly validating: readonly ValidatingPlugin[],
    readonly options: AdmissionChainOptions = {},
  ) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    for (const p of this.validating) await p.validate(a);
  }
}
