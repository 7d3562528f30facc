// Converters from flag text to configuration values with the messages Go's strconv, time and
// pflag give, for the controller manager's configuration flags. (The command-line parser itself
// lives in src/cmd/; this layer only declares what each flag takes.)

import { canonicalDuration, type Duration } from './go-duration.ts';

const INT32_MAX = 2 ** 31 - 1;

export function parseBool(v: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

export function parseInt32(v: string): number {
  if (!/^[+-]?\d+$/.test(v))
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = Number(v);
  if (n > INT32_MAX || n < -INT32_MAX - 1) {
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  }
  return n;
}

export function parseFloat32(v: string): number {
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v.trim()) ? Number(v) : Number.NaN;
  if (Number.isNaN(n)) throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`);
  if (!Number.isFinite(n) || Math.abs(n) > 3.4028234663852886e38) {
    throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: value out of range`);
  }
  return n;
}

export function parseGoDuration(v: string): Duration {
  return canonicalDuration(v);
}

/** pflag's stringSlice: comma-separated, kept as written; empty text is an empty list. */
export function parseStringSlice(v: string): string[] {
  return v === '' ? [] : v.split(',');
}

export const parseString = (v: string): string => v;
