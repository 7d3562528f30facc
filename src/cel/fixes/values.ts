// CEL's value semantics where the engine's differ: heterogeneous equality (numbers of different
// kinds are equal when their values are, `[1] == [1.0]` through dyn, maps with mixed-number keys),
// ordering across int/uint/double as cel-go orders them (an int against a double compares as
// doubles), bytes ordering, map lookups by key value rather than JS identity, and list indices
// given as uint or integral double. The operator fixes (operators.ts) call these at run time.

import { Duration, EvaluationError, Optional, UnsignedInt } from '../engine.ts';
import { durationNanos, timestampNanos } from './time.ts';

export function celError(code: string, message: string): EvaluationError {
  return new EvaluationError({ code, message });
}

/** The CEL type name of a value, for messages. */
export function kindOf(v: unknown): string {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
  }
  if (v === null || v === undefined) return 'null_type';
  if (v instanceof UnsignedInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'google.protobuf.Timestamp';
  if (v instanceof Duration) return 'google.protobuf.Duration';
  if (Array.isArray(v)) return 'list';
  if (isMap(v)) return 'map';
  return (v as object).constructor?.name ?? 'map';
}

/** A CEL map value: a JS Map (any keys) or a plain object (string keys). Not a typed object. */
export function isMap(v: unknown): v is Map<unknown, unknown> | Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const c = v.constructor;
  return c === Map || c === Object || c === undefined;
}

type Numeric = bigint | number | UnsignedInt;

function isNumeric(v: unknown): v is Numeric {
  return typeof v === 'bigint' || typeof v === 'number' || v instanceof UnsignedInt;
}

/**
 * Orders two numbers of any kinds as cel-go does: ints and uints exactly, anything against a
 * double as doubles (so 9223372036854775807 equals 9223372036854775808.0). NaN when unordered.
 */
function compareNumbers(a: Numeric, b: Numeric): number {
  if (typeof a === 'number' || typeof b === 'number') {
    const x = typeof a === 'number' ? a : Number(typeof a === 'bigint' ? a : a.value);
    const y = typeof b === 'number' ? b : Number(typeof b === 'bigint' ? b : b.value);
    return x < y ? -1 : x > y ? 1 : x === y ? 0 : Number.NaN;
  }
  const x = typeof a === 'bigint' ? a : a.value;
  const y = typeof b === 'bigint' ? b : b.value;
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function sign(x: bigint): number {
  return x < 0n ? -1 : x > 0n ? 1 : 0;
}

/**
 * CEL ordering of two values (`<`, `<=`, `>`, `>=`): negative, zero, positive, or NaN when a NaN
 * makes them unordered; undefined for values this does not order (the engine then decides, and
 * reports no such overload where nothing orders them).
 */
export function celCompare(a: unknown, b: unknown): number | undefined {
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof Date && b instanceof Date) return sign(timestampNanos(a) - timestampNanos(b));
  if (a instanceof Duration && b instanceof Duration) return sign(durationNanos(a) - durationNanos(b));
  return undefined;
}

interface Equatable {
  equals(other: unknown): boolean;
}

/** CEL equality (`==`): heterogeneous, so values of different types are unequal, not an error. */
export function celEquals(a: unknown, b: unknown): boolean {
  switch (typeof a) {
    case 'string':
    case 'boolean':
      return a === b;
    case 'bigint':
    case 'number':
      return isNumeric(b) && compareNumbers(a, b) === 0;
  }
  if (a === null || a === undefined) return b === null || b === undefined;
  if (a instanceof UnsignedInt) return isNumeric(b) && compareNumbers(a, b) === 0;
  if (typeof b !== 'object' || b === null) return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && compareBytes(a, b) === 0;
  if (a instanceof Date) return b instanceof Date && timestampNanos(a) === timestampNanos(b);
  if (a instanceof Duration) return b instanceof Duration && durationNanos(a) === durationNanos(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!celEquals(a[i], b[i])) return false;
    return true;
  }
  if (isMap(a)) return isMap(b) && mapsEqual(a, b);
  if (a instanceof Optional) {
    if (!(b instanceof Optional) || a.hasValue() !== b.hasValue()) return false;
    return !a.hasValue() || celEquals(a.value(), b.value());
  }
  // A library's value type (a quantity, an IP, a semantic version) defines its equality by an
  // `equals` method; values of two different classes are never equal.
  if (Object.getPrototypeOf(a) === Object.getPrototypeOf(b) && typeof (a as Equatable).equals === 'function')
    return (a as Equatable).equals(b);
  // Types compare by identity; typed objects (the engine's Map subclasses) likewise.
  return a === b;
}

function mapSize(m: Map<unknown, unknown> | Record<string, unknown>): number {
  return m instanceof Map ? m.size : Object.keys(m).length;
}

function* entries(m: Map<unknown, unknown> | Record<string, unknown>): Iterable<[unknown, unknown]> {
  if (m instanceof Map) yield* m.entries();
  else for (const k of Object.keys(m)) yield [k, m[k]];
}

function mapsEqual(
  a: Map<unknown, unknown> | Record<string, unknown>,
  b: Map<unknown, unknown> | Record<string, unknown>,
) {
  if (mapSize(a) !== mapSize(b)) return false;
  for (const [k, v] of entries(a)) {
    const w = mapGet(b, k);
    if (w === undefined || !celEquals(v, w)) return false;
  }
  return true;
}

/**
 * The value under `key`, or undefined. Keys match by CEL equality: an int key is found by a uint
 * or an integral double of the same value; a plain object holds string keys only, so a number
 * never finds its decimal spelling there.
 */
export function mapGet(m: Map<unknown, unknown> | Record<string, unknown>, key: unknown): unknown {
  if (!(m instanceof Map)) return typeof key === 'string' && Object.hasOwn(m, key) ? m[key] : undefined;
  const v = m.get(key);
  if (v !== undefined || !isNumeric(key)) return v;
  for (const [k, w] of m) if (isNumeric(k) && compareNumbers(k, key) === 0) return w;
  return undefined;
}

/** `x in list`. */
export function listContains(list: readonly unknown[], x: unknown): boolean {
  for (const v of list) if (celEquals(x, v)) return true;
  return false;
}

/** A list index from an int, a uint or an integral double (cel-go accepts all three); else undefined. */
export function listIndex(key: unknown): bigint | undefined {
  if (typeof key === 'bigint') return key;
  if (key instanceof UnsignedInt) return key.value;
  if (typeof key === 'number' && Number.isInteger(key)) return BigInt(key);
  return undefined;
}

/** Map keys CEL allows. */
export function isKeyValue(k: unknown): boolean {
  return typeof k === 'string' || typeof k === 'bigint' || typeof k === 'boolean' || k instanceof UnsignedInt;
}

/**
 * A map literal's value: a plain object when every key is a string (what callers pass and what the
 * engine reads fastest), otherwise a Map, so int, uint and bool keys keep their type (the engine
 * made a plain object of every literal, turning `{1: 'a'}`'s key into the string "1").
 * A key given twice is an error, as in cel-go.
 */
export function mapFromEntries(keys: readonly unknown[], values: readonly unknown[]): unknown {
  if (keys.every((k) => typeof k === 'string')) {
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      if (Object.hasOwn(obj, k)) throw repeatedKey(k);
      // Assigning `__proto__` would set the prototype (the engine dropped such keys instead).
      if (k === '__proto__')
        Object.defineProperty(obj, k, { value: values[i], enumerable: true, writable: true });
      else obj[k] = values[i];
    }
    return obj;
  }
  const m = new Map<unknown, unknown>();
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (!isKeyValue(k)) throw celError('unsupported_key_type', `unsupported key type: ${kindOf(k)}`);
    if (mapGet(m, k) !== undefined) throw repeatedKey(k);
    m.set(k, values[i]);
  }
  return m;
}

function repeatedKey(k: unknown): EvaluationError {
  return celError('repeated_key', `Failed with repeated key: ${String(k)}`);
}
