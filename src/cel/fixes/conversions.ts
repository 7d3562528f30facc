// Integer arithmetic and conversions where the engine's differ from cel-go: the int64 edge cases
// (`-(-9223372036854775808)`, `MIN / -1` and `MIN % -1` overflow), range errors of double to int
// and uint (cel-go excludes both ends: `int(9223372036854775807.0)` is an error, since that double
// is 2^63), int(uint), strict decimal parsing in int()/uint() (the engine let BigInt read `''` as 0
// and `0b101` as 5), and string(bytes) rejecting invalid UTF-8.

import { EvaluationError, UnsignedInt } from '../engine.ts';

const MAX_INT = 2n ** 63n - 1n;
const MIN_INT = -(2n ** 63n);
const TWO_POW_63 = 2 ** 63;
const TWO_POW_64 = 2 ** 64;

function overflow(): EvaluationError {
  return new EvaluationError({ code: 'numeric_overflow', message: 'integer overflow' });
}

/** Conversion range errors read `range error` (evaluate.ts keys on `()` in the message). */
function conversionRange(fn: string): EvaluationError {
  return new EvaluationError({ code: 'numeric_overflow', message: `${fn}() range error` });
}

export function negateInt(a: bigint): bigint {
  if (a === MIN_INT) throw overflow();
  return -a;
}

export function divideInt(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new EvaluationError({ code: 'division_by_zero', message: 'division by zero' });
  if (a === MIN_INT && b === -1n) throw overflow();
  return a / b;
}

export function moduloInt(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new EvaluationError({ code: 'modulo_by_zero', message: 'modulus by zero' });
  if (a === MIN_INT && b === -1n) throw overflow();
  return a % b;
}

export function intFromDouble(v: number): bigint {
  if (!(v > -TWO_POW_63 && v < TWO_POW_63)) throw conversionRange('int');
  return BigInt(Math.trunc(v));
}

export function uintFromDouble(v: number): UnsignedInt {
  if (!(v > -1 && v < TWO_POW_64)) throw conversionRange('uint');
  return new UnsignedInt(BigInt(Math.trunc(v)));
}

export function intFromUint(v: UnsignedInt): bigint {
  if (v.value > MAX_INT) throw conversionRange('int');
  return v.value;
}

const DECIMAL = /^[+-]?\d+$/;

export function intFromString(s: string): bigint {
  const v = DECIMAL.test(s) ? BigInt(s) : undefined;
  if (v === undefined || v > MAX_INT || v < MIN_INT)
    throw new EvaluationError({ code: 'int_conversion_error', message: `cannot convert "${s}" to int` });
  return v;
}

export function uintFromString(s: string): UnsignedInt {
  const v = /^\+?\d+$/.test(s) ? BigInt(s) : undefined;
  if (v === undefined || v >= 2n ** 64n)
    throw new EvaluationError({ code: 'uint_conversion_error', message: `cannot convert "${s}" to uint` });
  return new UnsignedInt(v);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function stringFromBytes(b: Uint8Array): string {
  try {
    return utf8.decode(b);
  } catch {
    throw new EvaluationError({
      code: 'invalid_utf8',
      message: 'invalid UTF-8 in bytes, cannot convert to string',
    });
  }
}
