// The canonical string of a quantity, and Go's power-of-ten table that upstream's approximate
// float multiplies by. Kept apart from quantity.ts so that file stays about parsing and arithmetic.

import type { QuantityFormat } from './quantity.ts';

const DECIMAL_SUFFIX_BY_EXPONENT = new Map<number, string>([
  [-9, 'n'],
  [-6, 'u'],
  [-3, 'm'],
  [0, ''],
  [3, 'k'],
  [6, 'M'],
  [9, 'G'],
  [12, 'T'],
  [15, 'P'],
  [18, 'E'],
]);
const BINARY_SUFFIX_BY_POWER = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * Upstream's canonical form: no fractional digits, the largest suffix that keeps the mantissa
 * whole, the format the quantity was written in. A binary quantity strictly between -1024 and
 * 1024, or one with a fraction, is shown in decimal. An exponent past the suffix tables (above
 * `E` or `Ei`) gets no suffix at all, as upstream prints it.
 */
export function canonicalQuantityString(mantissa: bigint, exponent: number, format: QuantityFormat): string {
  if (mantissa === 0n) return '0';
  let shown = format;
  let whole: bigint | undefined;
  if (format === 'BinarySI') {
    whole = wholeValue(mantissa, exponent);
    const magnitudeBelow1024 = mantissa < 0n ? -mantissa : mantissa;
    if (isBelow(magnitudeBelow1024, exponent, 1024n) || whole === undefined) shown = 'DecimalSI';
  }
  if (shown === 'BinarySI' && whole !== undefined) {
    let power = 0;
    while (whole % 1024n === 0n) {
      whole /= 1024n;
      power++;
    }
    return `${whole}${BINARY_SUFFIX_BY_POWER[power] ?? ''}`;
  }
  // Move trailing zeros into the exponent, then bring the exponent down to a multiple of three.
  let m = mantissa;
  let e = exponent;
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  while (e % 3 !== 0) {
    m *= 10n;
    e--;
  }
  if (shown === 'DecimalExponent') return e === 0 ? `${m}` : `${m}e${e}`;
  return `${m}${DECIMAL_SUFFIX_BY_EXPONENT.get(e) ?? ''}`;
}

/** |mantissa| × 10^exponent < limit. */
function isBelow(magnitude: bigint, exponent: number, limit: bigint): boolean {
  if (exponent >= 0) {
    if (exponent > 4) return false;
    return magnitude * 10n ** BigInt(exponent) < limit;
  }
  return magnitude < limit * 10n ** BigInt(-exponent);
}

/** The integer value, or undefined when there is a fraction. */
function wholeValue(mantissa: bigint, exponent: number): bigint | undefined {
  if (exponent >= 0) return mantissa * 10n ** BigInt(exponent);
  const d = 10n ** BigInt(-exponent);
  return mantissa % d === 0n ? mantissa / d : undefined;
}

// Go's math.Pow10 multiplies or divides two table entries; reproducing it (rather than using
// 10 ** n, which is not always correctly rounded) keeps the approximate float bit-identical.
const POW10 = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS32 = Array.from({ length: 10 }, (_, i) => Number(`1e${32 * i}`));
const POW10_NEG32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${32 * i}`));

export function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS32[Math.floor(n / 32)] * POW10[n % 32];
  if (n >= -323 && n <= 0) return POW10_NEG32[Math.floor(-n / 32)] / POW10[-n % 32];
  return n > 0 ? Number.POSITIVE_INFINITY : 0;
}
