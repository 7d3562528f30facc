// Every reported figure is a median over repeated runs with the spread next to it, so one noisy
// run on a shared machine neither hides nor fakes a regression.

export interface Summary {
  median: number;
  min: number;
  max: number;
  /** The raw per-run values, in run order, kept so results files can be re-analysed later. */
  runs: number[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(runs: readonly number[]): Summary {
  if (runs.length === 0) throw new RangeError('summary of no runs');
  for (const v of runs) {
    if (!Number.isFinite(v)) throw new RangeError(`run value is not a finite number: ${v}`);
  }
  return { median: median(runs), min: Math.min(...runs), max: Math.max(...runs), runs: [...runs] };
}
