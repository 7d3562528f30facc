// The auth tests' reading of a registry's exposition: the shared parser, a value that is 0 when
// the series is absent (counters not yet touched), and whole metrics with quoted label values.

import { type Exposition, parseExposition, sampleValue } from '../../machinery/metrics/testing/exposition.ts';

export { type Exposition, parseExposition };

/** The value of the one sample of `name` with exactly `labels`; 0 when there is none. */
export function value(e: Exposition, name: string, labels: Record<string, string>): number {
  return sampleValue(e, name, labels) ?? 0;
}

/** Every sample of `name`, as `{k="v",...} value` lines sorted, for whole-metric comparisons. */
export function series(e: Exposition, name: string): string[] {
  return e.samples
    .filter((s) => s.name === name)
    .map((s) => {
      const labels = Object.keys(s.labels)
        .sort()
        .map((k) => `${k}=${JSON.stringify(s.labels[k])}`)
        .join(',');
      return `{${labels}} ${s.value}`;
    })
    .sort();
}
