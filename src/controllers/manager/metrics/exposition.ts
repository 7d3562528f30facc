// The manager's metrics tests read /metrics through the shared parser, with the one-sample lookup
// as a method.

import {
  type Exposition,
  parseExposition as parse,
  sampleValue,
} from '../../../machinery/metrics/testing/exposition.ts';

export interface ManagerExposition extends Exposition {
  /** The value of the one sample with exactly these labels; undefined when there is none. */
  value(name: string, labels: Record<string, string>): number | undefined;
}

export function parseExposition(text: string): ManagerExposition {
  const e = parse(text);
  return { ...e, value: (name, labels) => sampleValue(e, name, labels) };
}
