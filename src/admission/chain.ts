// The admission chain: validating plugins run in order after the strategy has prepared the object;
// the first rejection ends the request.

import type { AdmissionAttributes, ValidatingPlugin } from './types.ts';

export class AdmissionChain {
  constructor(readonly validating: readonly ValidatingPlugin[]) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    for (const p of this.validating) await p.validate(a);
  }
}
