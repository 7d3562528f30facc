// Number rendering for string.format, digit for digit as cel-go prints it. cel-go formats doubles
// through Go's fmt (exact decimal expansion, round half to even) and, in the strings library
// before version 4 (the one kube-apiserver 1.35 enables), through golang.org/x/text's English
// printer, which groups thousands and writes exponents as `×10⁰³`. JavaScript's toFixed rounds
// half up and switches to exponents past 1e21, so the digits are computed here from the exact
// binary value instead.

/** The exact decimal expansion of a finite double's magnitude: integer digits and fraction digits. */
interface Exact {
  int: string;
  frac: string;
}

const view = new DataView(new ArrayBuffer(8));

function exact(x: number): Exact {
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) {
    exp = -1074;
  } else {
    mantissa |= 1n << 52n;
    exp = biased - 1075;
  }
  if (mantissa === 0n) return { int: '0', frac: '' };
  if (exp >= 0) return { int: (mantissa << BigInt(exp)).toString(), frac: '' };
  // m / 2^k = m * 5^k / 10^k: the digits of m * 5^k with k of them after the point.
  const k = -exp;
  const digits = (mantissa * 5n ** BigInt(k)).toString().padStart(k + 1, '0');
  const int = digits.slice(0, digits.length - k).replace(/^0+(?=\d)/, '');
  return { int, frac: digits.slice(digits.length - k).replace(/0+$/, '') };
}

/** Adds one to a string of decimal digits (`'199'` -> `'200'`, `'99'` -> `'100'`). */
function increment(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String.fromCharCode(out[i].charCodeAt(0) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/** Keeps the first `keep` (at least one) of `digits`, rounding half to even on what is dropped. */
function roundDigits(digits: string, keep: number): string {
  if (digits.length <= keep) return digits.padEnd(keep, '0');
  const kept = digits.slice(0, keep);
  const first = digits.charCodeAt(keep) - 48;
  const restNonZero = /[1-9]/.test(digits.slice(keep + 1));
  const lastOdd = (digits.charCodeAt(keep - 1) - 48) % 2 === 1;
  return first > 5 || (first === 5 && (restNonZero || lastOdd)) ? increment(kept) : kept;
}

/** The magnitude of a finite double with `precision` fraction digits: `[int, frac]`. */
function fixedParts(x: number, precision: number): [string, string] {
  const { int, frac } = exact(x);
  const digits = roundDigits(int + frac, int.length + precision);
  const intLen = digits.length - precision;
  return [digits.slice(0, intLen), digits.slice(intLen)];
}

/** Go's `%.<p>f` of a float64 (a negative zero keeps its sign, as in Go). */
export function goFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const [int, frac] = fixedParts(x, precision);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  return precision > 0 ? `${sign}${int}.${frac}` : `${sign}${int}`;
}

/** Significant digits of a finite, non-zero double rounded to `n`, and the decimal exponent. */
function scientificParts(x: number, n: number): { digits: string; exp: number } {
  const { int, frac } = exact(x);
  if (int === '0' && frac === '') return { digits: '0'.repeat(n), exp: 0 };
  let all: string;
  let exp: number;
  if (int !== '0') {
    all = int + frac;
    exp = int.length - 1;
  } else {
    const lead = frac.search(/[1-9]/);
    all = frac.slice(lead);
    exp = -(lead + 1);
  }
  const digits = roundDigits(all, n);
  // A carry (9.9999996 -> 10.00000) adds a digit: one more in the exponent instead.
  if (digits.length > n) return { digits: digits.slice(0, n), exp: exp + 1 };
  return { digits, exp };
}

/** Go's `%.<p>e` of a float64 (`2.718280e+00`). */
export function goScientific(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const { digits, exp } = scientificParts(x, precision + 1);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const mantissa = precision > 0 ? `${digits[0]}.${digits.slice(1)}` : digits[0];
  const e = String(Math.abs(exp)).padStart(2, '0');
  return `${sign}${mantissa}e${exp < 0 ? '-' : '+'}${e}`;
}

/** Go's strconv.FormatFloat(x, 'f', -1, 64): the shortest round-trip digits, never an exponent. */
export function goShortestFixed(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(x).toExponential());
  if (m === null) return `${sign}${Math.abs(x)}`;
  const digits = m[1] + (m[2] ?? '');
  const exp = Number(m[3]);
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits.padEnd(exp + 1, '0')}`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

// --- golang.org/x/text, English -----------------------------------------------------------------

function groupThousands(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** x/text's English `%.<p>f`: thousands grouped, `∞`, and no sign on a negative zero. */
export function textFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  const [int, frac] = fixedParts(x, precision);
  const sign = x < 0 ? '-' : '';
  return precision > 0 ? `${sign}${groupThousands(int)}.${frac}` : `${sign}${groupThousands(int)}`;
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/**
 * What cel-go's `%e` printed before version 4: x/text's English scientific form with six
 * fraction digits whatever the precision asked (cel-go passed it as a width of six), the exponent
 * in superscript (`1.052033×10⁰³`), padded to six characters (`   NaN`, `     ∞`).
 */
export function textScientific(x: number): string {
  let out: string;
  if (Number.isNaN(x)) out = 'NaN';
  else if (!Number.isFinite(x)) out = x > 0 ? '∞' : '-∞';
  else {
    const { digits, exp } = scientificParts(x, 7);
    const e = String(Math.abs(exp))
      .padStart(2, '0')
      .replace(/\d/g, (d) => SUPERSCRIPT[Number(d)]);
    out = `${x < 0 ? '-' : ''}${digits[0]}.${digits.slice(1)}×10${exp < 0 ? '⁻' : ''}${e}`;
  }
  const width = [...out].length;
  return width < 6 ? ' '.repeat(6 - width) + out : out;
}

/** Go's `%b`, `%o`, `%x`, `%X` of an integer: the magnitude in that base with a leading minus. */
export function goIntegerBase(v: bigint, base: 2 | 8 | 16, upper = false): string {
  const s = v < 0n ? `-${(-v).toString(base)}` : v.toString(base);
  return upper ? s.toUpperCase() : s;
}
