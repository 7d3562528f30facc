// The cost model's units and formulas, engine-independent: cel-go's constants
// (common/cost.go), how cel-go sizes a value at run time (interpreter/runtimecost.go actualSize),
// the formulas upstream uses for strings, regular expressions and traversals, and the
// saturating uint64 range arithmetic of the static estimator (checker/cost.go). Library authors
// use the helpers here to write an overload's `cost`/`estimateCost` hooks; the by-name table of
// upstream's library costs is cost-table.ts.
//
// Floating-point factors are applied exactly as upstream does (`Math.ceil(size * 0.1)`, not
// `size / 10`): cel-go multiplies float64s too, so 30 characters cost ceil(3.0000000000000004) = 4
// in both.

import { Optional } from './engine.ts';

/** An identifier or a field selection (cel-go SelectAndIdentCost). */
export const SELECT_AND_IDENT_COST = 1;
/** A literal (cel-go ConstCost). */
export const CONST_COST = 0;
/**
 * A list the engine builds for itself: a comprehension's accumulator, `cel.bind`'s fold, a list a
 * library function returns (cel-go ListCreateBaseCost).
 */
export const LIST_CREATE_BASE_COST = 10;
/**
 * A list literal written in the expression (`[a, b]`). The spec fixes its base cost at 40; cel-go,
 * which kube-apiserver runs, charges every list creation 10 (its ListCreateBaseCost; 40 is its
 * StructCreateBaseCost), so estimates and run-time costs of expressions with non-constant list
 * literals are 30 a literal above kube-apiserver's. The spec names literals only: the lists the
 * engine builds itself keep cel-go's 10, so every other figure matches upstream.
 */
export const LIST_LITERAL_BASE_COST = 40;
/** Creating a map (cel-go MapCreateBaseCost). */
export const MAP_CREATE_BASE_COST = 30;
/** Creating an object (cel-go StructCreateBaseCost). */
export const STRUCT_CREATE_BASE_COST = 40;
/** Per character of a string traversed once (cel-go StringTraversalCostFactor). */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** Per character of a regular expression, applied to one unit of input (cel-go RegexStringLengthCostFactor). */
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

// --- run time -------------------------------------------------------------------------------------

const SURROGATE = /[\uD800-\uDFFF]/;

/** A string's size as CEL counts it: code points (JavaScript's `length` counts UTF-16 units). */
export function stringSize(s: string): number {
  // Past a few characters a regular expression finds "no surrogates" faster than a loop (in
  // about the time of a 6-character loop, whatever the length, for strings stored one byte per
  // character).
  if (s.length > 6 && !SURROGATE.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const NON_ASCII = /[\u0080-\uffff]/;

/** A string's UTF-8 length in bytes (Go's `len(string)`), which k8s's traversal cost counts. */
export function utf8Length(s: string): number {
  if (s.length > 6 && !NON_ASCII.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

function isPlainObject(v: object): boolean {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/**
 * A value's size as cel-go's cost tracker sees it (actualSize): a string's code points, a bytes'
 * length, a list's or map's entries, an optional's value; 1 for everything else (numbers,
 * booleans, null, timestamps, durations, library values such as quantities and IPs).
 */
export function valueSize(v: unknown): number {
  if (typeof v === 'string') return stringSize(v);
  if (typeof v !== 'object' || v === null) return 1;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof Map) {
    // A declared object type is a Map the engine fills lazily; iterating fills it.
    if (v.constructor === Map) return v.size;
    let n = 0;
    for (const [, x] of v) if (x !== undefined) n++;
    return n;
  }
  if (v instanceof Set) return v.size;
  if (v instanceof Optional) return v.hasValue() ? valueSize(v.value()) : 1;
  if (isPlainObject(v)) {
    let n = 0;
    for (const k in v) if (Object.hasOwn(v, k)) n++;
    return n;
  }
  return 1;
}

/** Traversing `size` characters once: ceil(size × 0.1). startsWith, lowerAscii, quantity(), ... */
export function stringTraversalCost(size: number): number {
  return Math.ceil(size * STRING_TRAVERSAL_COST_FACTOR);
}

/**
 * A regular expression of `patternSize` characters over `inputSize` characters: RE2 is linear in
 * both, so cel-go charges ceil((1 + input) × 0.1) × ceil(pattern × 0.25) (matches, find, findAll).
 */
export function regexCost(patternSize: number, inputSize: number): number {
  return (
    Math.ceil((1 + inputSize) * STRING_TRAVERSAL_COST_FACTOR) *
    Math.ceil(patternSize * REGEX_STRING_LENGTH_COST_FACTOR)
  );
}

/** `s.contains(sub)`: ceil(s × 0.1) × ceil(sub × 0.1). */
export function containsCost(size: number, subSize: number): number {
  return Math.ceil(size * STRING_TRAVERSAL_COST_FACTOR) * Math.ceil(subSize * STRING_TRAVERSAL_COST_FACTOR);
}

/** `==`, `!=` and string/bytes ordering: ceil(min(sizes) × 0.1), so 1 for two scalars. */
export function comparisonCost(left: unknown, right: unknown): number {
  if (typeof left === 'string' && typeof right === 'string') {
    // Only the smaller size counts; a string has at least half as many code points as UTF-16 units.
    const [a, b] = left.length <= right.length ? [left, right] : [right, left];
    const sa = stringSize(a);
    const min = sa * 2 <= b.length ? sa : Math.min(sa, stringSize(b));
    return Math.ceil(min * STRING_TRAVERSAL_COST_FACTOR);
  }
  return Math.ceil(Math.min(valueSize(left), valueSize(right)) * STRING_TRAVERSAL_COST_FACTOR);
}

/**
 * Kubernetes' traversal of a value as a tree (library/cost.go traversalCost), charged by the lists
 * library's O(n) functions: a string or bytes costs trunc(bytes × 0.1), a list the sum of its
 * elements, a map or object the sum of its keys and values, anything else 1.
 */
export function traversalCost(v: unknown): number {
  if (typeof v === 'string') return Math.trunc(utf8Length(v) * STRING_TRAVERSAL_COST_FACTOR);
  if (typeof v !== 'object' || v === null) return 1;
  if (v instanceof Uint8Array) return Math.trunc(v.length * STRING_TRAVERSAL_COST_FACTOR);
  let cost = 0;
  if (Array.isArray(v) || v instanceof Set) {
    for (const e of v) cost += traversalCost(e);
    return cost;
  }
  if (v instanceof Map) {
    for (const [k, e] of v) if (e !== undefined) cost += traversalCost(k) + traversalCost(e);
    return cost;
  }
  if (isPlainObject(v)) {
    for (const [k, e] of Object.entries(v)) cost += traversalCost(k) + traversalCost(e);
    return cost;
  }
  return 1;
}

// --- static ranges ----------------------------------------------------------------------------------

/**
 * A [min, max] range of sizes or costs as cel-go's estimator keeps them: unsigned 64-bit, and
 * saturating at 2^64-1 instead of overflowing, so "unbounded" stays unbounded through arithmetic.
 * bigint keeps the figures exact where upstream's tests expect exact numbers past 2^53.
 */
export interface Bounds {
  readonly min: bigint;
  readonly max: bigint;
}

export const UINT64_MAX = 2n ** 64n - 1n;
/** A size nothing is known about. */
export const UNKNOWN_SIZE: Bounds = Object.freeze({ min: 0n, max: UINT64_MAX });
export const ZERO: Bounds = Object.freeze({ min: 0n, max: 0n });

export function fixed(n: number | bigint): Bounds {
  const b = typeof n === 'bigint' ? n : toUint64(n);
  return { min: b, max: b };
}

function sat(x: bigint): bigint {
  return x > UINT64_MAX ? UINT64_MAX : x;
}

export function addBounds(a: Bounds, b: Bounds): Bounds {
  return { min: sat(a.min + b.min), max: sat(a.max + b.max) };
}

export function mulBounds(a: Bounds, b: Bounds): Bounds {
  return { min: sat(a.min * b.min), max: sat(a.max * b.max) };
}

/** The smaller of two uint64s (Math.min takes numbers only). */
export function minUint(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxUint(a: bigint, b: bigint): bigint {
  return a < b ? b : a;
}

export function unionBounds(a: Bounds, b: Bounds): Bounds {
  return { min: minUint(a.min, b.min), max: maxUint(a.max, b.max) };
}

/** cel-go multiplyByCostFactor: the product in float64, rounded up, saturating. */
export function scaleUint(x: bigint, factor: number): bigint {
  const xf = Number(x);
  if (xf > 0 && factor > 0 && xf > Number(UINT64_MAX) / factor) return UINT64_MAX;
  const c = Math.ceil(xf * factor);
  return c >= 2 ** 64 ? UINT64_MAX : BigInt(c);
}

/** Both ends times a cost factor, rounded up (cel-go MultiplyByCostFactor). */
export function scaleBounds(a: Bounds, factor: number): Bounds {
  return { min: scaleUint(a.min, factor), max: scaleUint(a.max, factor) };
}

/** A non-negative number as a uint64 (rounded up; Infinity and anything past 2^64-1 saturate). */
export function toUint64(n: number): bigint {
  if (!(n > 0)) return 0n;
  if (n >= 2 ** 64) return UINT64_MAX;
  return BigInt(Math.ceil(n));
}

export function toBounds(r: { readonly min: number; readonly max: number }): Bounds {
  return { min: toUint64(r.min), max: toUint64(r.max) };
}

/** A range as numbers (exact up to 2^53; beyond, the nearest double). */
export function fromBounds(b: Bounds): { min: number; max: number } {
  return { min: Number(b.min), max: Number(b.max) };
}
