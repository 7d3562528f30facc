// Converters from flag text to values, with the messages Go's pflag gives for bad input.

import { parseDuration } from '../machinery/duration.ts';

export function port(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new Error('must be a port number (0-65535)');
  return Number(v);
}

export function bool(v: string | undefined): boolean {
  if (v === undefined) return true;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

export function seconds(v: string): number {
  if (!/^\d+$/.test(v)) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

export function positive(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) === 0) throw new Error('must be a positive integer');
  return Number(v);
}

export function duration(v: string): number {
  try {
    const ms = parseDuration(v);
    if (ms < 0) throw new Error(`must not be negative`);
    return ms;
  } catch (err) {
    throw new Error((err as Error).message);
  }
}

export function list(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export const text = (v: string) => v;

/** `key=value` pairs separated by commas (pflag's mapStringString). */
export function pairs(v: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of list(v)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`${pair} must be formatted as key=value`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** `--feature-gates`: comma-separated `Name=bool` pairs. */
export function featureGatePairs(v: string): Record<string, boolean> {
  const gates: Record<string, boolean> = {};
  for (const pair of list(v)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`missing bool value for ${pair}`);
    gates[pair.slice(0, eq)] = bool(pair.slice(eq + 1));
  }
  return gates;
}
