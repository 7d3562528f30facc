// Durations as the configuration files carry them: strings in Go's time.Duration form. A decoded
// value is written back the way metav1.Duration marshals it (`90s` becomes `1m30s`, `0` becomes
// `0s`), so a configuration compares and prints the same whichever spelling the file used.

import { parseDuration } from '../../../machinery/duration.ts';

/** A Go duration string: `15s`, `5m0s`, `8760h0m0s`. */
export type Duration = string;

/** Go's Duration.String() of a whole number of nanoseconds. */
function formatNanos(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1_000_000_000n) {
    // Below a second Go picks the largest unit that keeps a whole part: ns, µs or ms.
    const [unit, scale] = u < 1_000n ? ['ns', 1n] : u < 1_000_000n ? ['µs', 1_000n] : ['ms', 1_000_000n];
    out = fraction(u, scale) + unit;
  } else {
    const h = u / 3_600_000_000_000n;
    u -= h * 3_600_000_000_000n;
    const m = u / 60_000_000_000n;
    u -= m * 60_000_000_000n;
    const s = `${fraction(u, 1_000_000_000n)}s`;
    out = h > 0n ? `${h}h${m}m${s}` : m > 0n ? `${m}m${s}` : s;
  }
  return neg ? `-${out}` : out;
}

/** `v / scale` in decimal with trailing zeros of the fraction dropped. */
function fraction(v: bigint, scale: bigint): string {
  const whole = v / scale;
  const rest = v % scale;
  if (rest === 0n) return String(whole);
  const digits = String(scale).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** The canonical spelling of a duration given in milliseconds (fractions down to nanoseconds). */
export function formatDuration(ms: number): Duration {
  return formatNanos(BigInt(Math.round(ms * 1e6)));
}

/** Milliseconds of a configuration duration; throws `time: invalid duration "x"` for bad text. */
export function durationMs(d: Duration): number {
  return parseDuration(d);
}

/** The canonical spelling of a duration text; throws for bad text. */
export function canonicalDuration(text: string): Duration {
  return formatDuration(parseDuration(text));
}
