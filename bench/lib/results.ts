// One JSON file per scenario run under bench/results/, named so that a plain sort is a time sort.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * ISO 8601 basic format (20250102T030405.678Z): still ISO and still sorts by time, but free of the
 * colons that Windows and scp choke on in file names.
 */
export function compactIsoTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '');
}

export function resultFileName(date: Date, scenario: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(scenario)) throw new RangeError(`unsafe scenario name: ${scenario}`);
  return `${compactIsoTimestamp(date)}-${scenario}.json`;
}

/** Writes the result and returns its path; never overwrites an earlier result. */
export function writeResult(dir: string, scenario: string, date: Date, data: unknown): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, resultFileName(date, scenario));
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`, { flag: 'wx' });
  return path;
}
