// Resource quantities (`100m`, `1.5Gi`, `1e3`) with upstream's exact semantics: the parse grammar and
// its error strings, the rounding to nano precision, the canonical string, and the arithmetic.
//
// Upstream keeps a quantity either as a small scaled int64 or as an arbitrary-precision decimal,
// and several observable results depend on which one it holds (isInteger is false for the
// decimal form even when the value is whole, `1000m` is not an integer because its scale is
// negative, the approximate float is computed from the stored digits). So this type records the
// same mantissa, exponent and representation upstream would hold, and every operation reproduces
// the representation it would produce. Values are immutable.

import { canonicalQuantityString, goPow10 } from './quantity-format.ts';

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

export const QUANTITY_REGEX = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${QUANTITY_REGEX}'`;
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";
export const QUANTITY_NOT_INTEGER_ERROR = 'cannot convert value to integer';

/** A quantity that does not parse, or an operation upstream refuses. */
export class QuantityError extends Error {
  override name = 'QuantityError';
}

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
const NANO = -9;
// Upstream would materialize 10^n for any n (and exhaust memory on `1e2000000000` plus a
// fraction); past this many digits of shifting we answer an error instead.
const MAX_SHIFT_DIGITS = 100_000;

function fitsInt64(v: bigint): boolean {
  return v >= MIN_INT64 && v <= MAX_INT64;
}

function pow10(n: number): bigint {
  if (n > MAX_SHIFT_DIGITS) throw new QuantityError('quantity exponent out of range');
  return 10n ** BigInt(n);
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

interface Suffix {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

const DECIMAL_SUFFIXES: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

function interpretSuffix(s: string): Suffix | undefined {
  if (Object.hasOwn(DECIMAL_SUFFIXES, s))
    return { base: 10, exponent: DECIMAL_SUFFIXES[s], format: 'DecimalSI' };
  if (Object.hasOwn(BINARY_SUFFIXES, s)) return { base: 2, exponent: BINARY_SUFFIXES[s], format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E')) {
    // Go's ParseInt: optional sign, decimal digits, in int64 range; upstream then keeps the low
    // 32 bits of it.
    const digits = s.slice(1);
    if (!/^[+-]?[0-9]+$/.test(digits)) return undefined;
    const v = BigInt(digits);
    if (!fitsInt64(v)) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, v)), format: 'DecimalExponent' };
  }
  return undefined;
}

interface Scanned {
  negative: boolean;
  /** Integer digits without leading zeros; '0' when there are none. */
  whole: string;
  fraction: string;
  suffix: string;
  /** Whether the number had any digit at all (`.` and `-.` have none). */
  anyDigit: boolean;
}

const SUFFIX_LETTERS = 'eEinumkKMGTP';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

// Upstream's scanner is more permissive than its regular expression (`.`, `-` and `Mi` all scan
// as zero), and the error it reports is the regular expression's; both are kept.
function scan(s: string): Scanned {
  let i = 0;
  let negative = false;
  if (s[0] === '-') {
    negative = true;
    i++;
  } else if (s[0] === '+') {
    i++;
  }
  while (s[i] === '0') i++;
  if (i >= s.length) return { negative, whole: '0', fraction: '', suffix: '', anyDigit: true };
  const wholeStart = i;
  while (isDigit(s[i])) i++;
  const whole = s.slice(wholeStart, i) || '0';
  let fraction = '';
  if (s[i] === '.') {
    const start = ++i;
    while (isDigit(s[i])) i++;
    fraction = s.slice(start, i);
  }
  const anyDigit = /[0-9]/.test(s.slice(0, i));
  const suffixStart = i;
  while (i < s.length && SUFFIX_LETTERS.includes(s[i])) i++;
  if (s[i] === '-' || s[i] === '+') i++;
  while (isDigit(s[i])) i++;
  if (i < s.length) throw new QuantityError(QUANTITY_FORMAT_ERROR);
  return { negative, whole, fraction, suffix: s.slice(suffixStart), anyDigit };
}

/** value = mantissa × 10^exponent. */
interface Amount {
  mantissa: bigint;
  exponent: number;
}

/**
 * Upstream's small-form addition: exact, aligned to the smaller exponent, and refused (so that
 * the caller falls back to the decimal form) when any step leaves int64.
 */
function addSmall(a: Amount, b: Amount): Amount | undefined {
  if (b.mantissa === 0n) return a;
  if (a.mantissa === 0n) return b;
  if (a.exponent === b.exponent) {
    const sum = a.mantissa + b.mantissa;
    return fitsInt64(sum) ? { mantissa: sum, exponent: a.exponent } : undefined;
  }
  const [hi, lo] = a.exponent > b.exponent ? [a, b] : [b, a];
  const diff = hi.exponent - lo.exponent;
  if (diff > 19) return undefined; // 10^19 already leaves int64 for any non-zero mantissa
  const shifted = hi.mantissa * 10n ** BigInt(diff);
  if (!fitsInt64(shifted)) return undefined;
  const sum = shifted + lo.mantissa;
  return fitsInt64(sum) ? { mantissa: sum, exponent: lo.exponent } : undefined;
}

/** Exact addition in the decimal form: aligned to the smaller exponent. */
function addExact(a: Amount, b: Amount): Amount {
  const exponent = Math.min(a.exponent, b.exponent);
  const x = a.mantissa * pow10(a.exponent - exponent);
  const y = b.mantissa * pow10(b.exponent - exponent);
  return { mantissa: x + y, exponent };
}

function sign(v: bigint): -1 | 0 | 1 {
  return v < 0n ? -1 : v > 0n ? 1 : 0;
}

/** Exact comparison without materializing a huge shift when the magnitudes are far apart. */
function compareAmounts(a: Amount, b: Amount): -1 | 0 | 1 {
  const sa = sign(a.mantissa);
  const sb = sign(b.mantissa);
  if (sa !== sb || sa === 0) return sa < sb ? -1 : sa > sb ? 1 : 0;
  // Same non-zero sign: compare the position of the leading digit first.
  const lead = (x: Amount) => abs(x.mantissa).toString().length + x.exponent;
  const la = lead(a);
  const lb = lead(b);
  if (la !== lb) return ((la > lb ? 1 : -1) * sa) as -1 | 1;
  const d = addExact(a, { mantissa: -b.mantissa, exponent: b.exponent }).mantissa;
  return sign(d);
}

export class Quantity {
  /** value = mantissa × 10^exponent, exactly as upstream stores it. */
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
  /** True when upstream would hold this value in its arbitrary-precision form. */
  readonly decimalForm: boolean;
  // Upstream re-emits the parsed text unchanged when it already looks canonical (`+1k` stays
  // `+1k`); arithmetic drops it.
  private readonly literal: string | undefined;

  private constructor(a: Amount, format: QuantityFormat, decimalForm: boolean, literal?: string) {
    this.mantissa = a.mantissa;
    this.exponent = a.exponent;
    this.format = format;
    this.decimalForm = decimalForm;
    this.literal = literal;
  }

  /** Parses upstream's grammar; throws QuantityError with upstream's message. */
  static parse(s: string): Quantity {
    if (s.length === 0) throw new QuantityError(QUANTITY_FORMAT_ERROR);
    if (s === '0') return new Quantity({ mantissa: 0n, exponent: 0 }, 'DecimalSI', false, s);
    const { negative, whole, fraction, suffix, anyDigit } = scan(s);
    const unit = interpretSuffix(suffix);
    if (unit === undefined) throw new QuantityError(QUANTITY_SUFFIX_ERROR);
    const small = parseSmall(s, negative, whole, fraction, unit);
    if (small !== undefined) return new Quantity(small, small.format, false, small.literal);
    // The slow path re-reads the number as a decimal, which needs at least one digit.
    if (!anyDigit) throw new QuantityError(QUANTITY_NUMERIC_ERROR);
    const large = parseLarge(negative, whole, fraction, unit);
    return new Quantity(large, large.format, true);
  }

  /** An integer as upstream's CEL library turns one into a quantity (decimal exponent format). */
  static fromInt(v: bigint | number): Quantity {
    const m = BigInt(v);
    if (!fitsInt64(m)) throw new QuantityError('integer out of int64 range');
    return new Quantity({ mantissa: m, exponent: 0 }, 'DecimalExponent', false);
  }

  isZero(): boolean {
    return this.mantissa === 0n;
  }

  sign(): -1 | 0 | 1 {
    return sign(this.mantissa);
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than other. */
  cmp(other: Quantity): -1 | 0 | 1 {
    return compareAmounts(this, other);
  }

  equals(other: Quantity): boolean {
    return this.cmp(other) === 0;
  }

  add(other: Quantity): Quantity {
    let format = this.format;
    if (!this.decimalForm && !other.decimalForm) {
      if (this.isZero()) format = other.format;
      const r = addSmall(this, other);
      if (r !== undefined) return new Quantity(r, format, false);
    } else if (this.isZero()) {
      format = other.format;
    }
    return new Quantity(addExact(this, other), format, true);
  }

  sub(other: Quantity): Quantity {
    const format = this.isZero() ? other.format : this.format;
    if (!this.decimalForm && !other.decimalForm) {
      // Upstream negates the int64 in place, so the most negative int64 stays negative.
      const negated = { mantissa: BigInt.asIntN(64, -other.mantissa), exponent: other.exponent };
      const r = addSmall(this, negated);
      if (r !== undefined) return new Quantity(r, format, false);
    }
    return new Quantity(
      addExact(this, { mantissa: -other.mantissa, exponent: other.exponent }),
      format,
      true,
    );
  }

  neg(): Quantity {
    // The small form wraps like upstream's int64 negation.
    const m = this.decimalForm ? -this.mantissa : BigInt.asIntN(64, -this.mantissa);
    return new Quantity({ mantissa: m, exponent: this.exponent }, this.format, this.decimalForm);
  }

  /** The value as an int64 when upstream can give one without loss; undefined otherwise. */
  asInt64(): bigint | undefined {
    if (this.decimalForm || this.exponent < 0) return undefined;
    if (this.exponent === 0 || this.mantissa === 0n) return this.mantissa;
    if (this.exponent > 19) return undefined;
    const v = this.mantissa * 10n ** BigInt(this.exponent);
    return fitsInt64(v) ? v : undefined;
  }

  isInteger(): boolean {
    return this.asInt64() !== undefined;
  }

  /** The int64 value; throws `cannot convert value to integer` as upstream's CEL library does. */
  asInteger(): bigint {
    const v = this.asInt64();
    if (v === undefined) throw new QuantityError(QUANTITY_NOT_INTEGER_ERROR);
    return v;
  }

  /** float64 of the stored digits times a power of ten, rounded the way upstream rounds it. */
  asApproximateFloat(): number {
    const base = Number(this.mantissa);
    if (this.exponent === 0) return base;
    return base * goPow10(this.exponent);
  }

  /** The canonical form (or the parsed text when upstream keeps it). */
  toString(): string {
    if (this.literal !== undefined) return this.literal;
    return canonicalQuantityString(this.mantissa, this.exponent, this.format);
  }

  toJSON(): string {
    return this.toString();
  }
}

interface Parsed extends Amount {
  format: QuantityFormat;
  literal?: string;
}

// Upstream's fast path: the value fits an int64 at a scale no finer than nano.
function parseSmall(
  s: string,
  negative: boolean,
  whole: string,
  fraction: string,
  unit: Suffix,
): Parsed | undefined {
  let precision: number;
  let scale = 0;
  let factor = 1n;
  if (unit.base === 10) {
    scale = unit.exponent;
    precision = 18 - (whole.length + fraction.length);
  } else if (unit.exponent >= 0 && fraction.length === 0) {
    factor = 1n << BigInt(unit.exponent);
    // Upstream's estimate of the decimal digits a binary suffix uses (Mi ~ 6).
    precision = 15 - whole.length - Math.trunc((unit.exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision < 0) return undefined;
  scale -= fraction.length;
  if (scale < NANO) return undefined;
  const digits = whole + fraction;
  const value = BigInt(digits);
  let result = value * factor;
  if (!fitsInt64(result)) return undefined;
  if (negative) result = -result;
  let keep = false;
  if (unit.format === 'BinarySI') keep = unit.exponent % 10 === 0 && (value & 7n) !== 0n;
  else keep = scale % 3 === 0 && !digits.endsWith('000') && digits[0] !== '0';
  return { mantissa: result, exponent: scale, format: unit.format, literal: keep ? s : undefined };
}

// Upstream's slow path: arbitrary precision, rounded up (away from zero) to nano, binary values
// capped at 2^63-1, and a binary value below one shown in decimal.
function parseLarge(negative: boolean, whole: string, fraction: string, unit: Suffix): Parsed {
  let mantissa = BigInt(whole + fraction);
  let exponent = -fraction.length;
  if (unit.base === 10) exponent += unit.exponent;
  else mantissa <<= BigInt(unit.exponent);
  let format = unit.format;
  if (mantissa !== 0n) {
    if (exponent < NANO) {
      const d = pow10(NANO - exponent);
      mantissa = (mantissa + d - 1n) / d;
    } else {
      mantissa *= pow10(exponent - NANO);
    }
    exponent = NANO;
  }
  if (format === 'BinarySI') {
    if (compareAmounts({ mantissa, exponent }, { mantissa: MAX_INT64, exponent: 0 }) > 0) {
      mantissa = MAX_INT64;
      exponent = 0;
    }
    if (mantissa !== 0n && compareAmounts({ mantissa, exponent }, { mantissa: 1n, exponent: 0 }) < 0) {
      format = 'DecimalSI';
    }
  }
  return { mantissa: negative ? -mantissa : mantissa, exponent, format };
}

/** Parses a quantity; throws QuantityError with upstream's message. */
export function parseQuantity(s: string): Quantity {
  return Quantity.parse(s);
}

/** Whether s parses as a quantity (the CEL library's isQuantity). */
export function isQuantity(s: string): boolean {
  try {
    Quantity.parse(s);
    return true;
  } catch (e) {
    if (e instanceof QuantityError) return false;
    throw e;
  }
}
