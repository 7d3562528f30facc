// The clauses of string.format (%s %d %f %e %b %x %X %o) for the two ways cel-go has them:
// versions 1-3 of the strings extension (kube-apiserver 1.35's) quote strings inside lists and
// maps and print doubles through x/text's English printer; version 4 follows the CEL
// specification. strings-format.ts parses the format string and calls these.

import { goFloat, goQuote } from '../../machinery/field-errors.ts';
import { Duration, UnsignedInt } from '../engine.ts';
import { formatDuration, formatTimestamp } from '../fixes/time.ts';
import {
  goFixed,
  goIntegerBase,
  goScientific,
  goShortestFixed,
  textFixed,
  textScientific,
} from './strings-numbers.ts';

export type Clause = (v: unknown) => string;

/**
 * The clauses of one version; `precision` is undefined when the clause gave none. The compile-time
 * checker (strings-validate.ts) is a Formatter too, over the argument expressions.
 */
export interface Formatter {
  string: Clause;
  decimal: Clause;
  fixed(precision: number | undefined): Clause;
  scientific(precision: number | undefined): Clause;
  binary: Clause;
  hex(upper: boolean): Clause;
  octal: Clause;
}

// --- values -----------------------------------------------------------------------------------------

type Kind =
  | 'int'
  | 'uint'
  | 'double'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'null'
  | 'list'
  | 'map'
  | 'timestamp'
  | 'duration'
  | 'type'
  | 'other';

function kind(v: unknown): Kind {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
  }
  if (v === null || v === undefined) return 'null';
  if (v instanceof UnsignedInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Date) return 'timestamp';
  if (v instanceof Duration) return 'duration';
  // Typed objects are the engine's Map subclasses: maps, as upstream's unstructured objects are.
  if (v instanceof Map) return 'map';
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return 'map';
  if (isTypeValue(v)) return 'type';
  return 'other';
}

/** The engine's type values (`type(1)`): instances of its Type class, which carry a name. */
function isTypeValue(v: unknown): v is { name: string } {
  return (
    (v as { constructor?: { name?: string } }).constructor?.name === 'Type' &&
    typeof (v as { name?: unknown }).name === 'string'
  );
}

/** cel-go's name of a value's type, as its messages print it. */
function typeNameOf(v: unknown): string {
  switch (kind(v)) {
    case 'null':
      return 'null_type';
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    case 'other':
      return String((v as { constructor?: { name?: string } }).constructor?.name ?? 'unknown').replace(
        /^Optional$/,
        'optional_type',
      );
    default:
      return kind(v);
  }
}

function typeValueName(v: { name: string }): string {
  return v.name === 'null' ? 'null_type' : v.name;
}

function entriesOf(m: unknown): [unknown, unknown][] {
  if (m instanceof Map) return [...m.entries()];
  return Object.entries(m as Record<string, unknown>);
}

function integer(v: unknown): bigint {
  return v instanceof UnsignedInt ? v.value : (v as bigint);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Lossy = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

function hexBytes(b: Uint8Array, upper: boolean): string {
  const s = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
  return upper ? s.toUpperCase() : s;
}

/** Go orders strings by their UTF-8 bytes, which is code point order. */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const isSpecialDoubleString = (v: unknown) => v === 'NaN' || v === 'Infinity' || v === '-Infinity';

/** A formatting error; `at` is the argument (an expression, for the checker) it is about. */
export class FormatError extends Error {
  constructor(
    message: string,
    readonly at?: unknown,
  ) {
    super(message);
  }
}

function fail(message: string, at?: unknown): never {
  throw new FormatError(message, at);
}

// --- versions 1 to 3 ------------------------------------------------------------------------------

const STRING_CLAUSE =
  'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given';

function textString(v: unknown): string {
  switch (kind(v)) {
    case 'list':
      return `[${(v as unknown[]).map(textElement).join(', ')}]`;
    case 'map': {
      const entries = entriesOf(v).map(([k, x]) => {
        const kk = kind(k);
        if (kk !== 'string' && kk !== 'bool' && kk !== 'int' && kk !== 'uint')
          fail(`no formatting function for map key of type ${typeNameOf(k)}`);
        return [textElement(k), textElement(x)];
      });
      entries.sort((a, b) => byCodePoint(a[0], b[0]));
      return `{${entries.map(([k, x]) => `${k}:${x}`).join(', ')}}`;
    }
    case 'int':
    case 'uint':
      return integer(v).toString();
    case 'double':
      return goFloat(v as number);
    case 'bool':
    case 'string':
      return String(v);
    case 'bytes':
      try {
        return utf8.decode(v as Uint8Array);
      } catch {
        return fail(
          'could not convert argument "invalid UTF-8 in bytes, cannot convert to string" to string',
        );
      }
    case 'timestamp':
      return formatTimestamp(v as Date);
    case 'duration':
      return formatDuration(v as Duration);
    case 'type':
      return typeValueName(v as { name: string });
    case 'null':
      return 'null';
    default:
      return fail(`${STRING_CLAUSE} ${typeNameOf(v)}`);
  }
}

/** A list element or map entry: written as a CEL literal would be. */
function textElement(v: unknown): string {
  switch (kind(v)) {
    case 'string':
      return goQuote(v as string);
    case 'bytes':
      return `b${goQuote(textString(v))}`;
    case 'double': {
      const x = v as number;
      return Number.isFinite(x) ? goFixed(x, 6) : goQuote(goFixed(x, 6));
    }
    case 'timestamp':
      return `timestamp(${goQuote(formatTimestamp(v as Date))})`;
    case 'duration':
      return `duration(${goQuote(formatDuration(v as Duration))})`;
    case 'other':
      return fail(`no formatting function for ${typeNameOf(v)}`);
    default:
      return textString(v);
  }
}

function asTextDouble(v: unknown, clause: string): number {
  if (typeof v === 'number') return v;
  if (isSpecialDoubleString(v)) return Number(v);
  return fail(`${clause} clause can only be used on doubles, was given ${typeNameOf(v)}`);
}

export const textFormatter: Formatter = {
  string: textString,
  decimal(v) {
    if (typeof v === 'bigint' || v instanceof UnsignedInt) return integer(v).toString();
    return fail(`decimal clause can only be used on integers, was given ${typeNameOf(v)}`);
  },
  fixed: (precision) => (v) => textFixed(asTextDouble(v, 'fixed-point'), precision ?? 6),
  scientific: () => (v) => textScientific(asTextDouble(v, 'scientific')),
  binary(v) {
    if (typeof v === 'boolean') return v ? '1' : '0';
    if (typeof v === 'bigint' || v instanceof UnsignedInt) return goIntegerBase(integer(v), 2);
    return fail(`only integers and bools can be formatted as binary, was given ${typeNameOf(v)}`);
  },
  hex: (upper) => (v) => {
    if (typeof v === 'string') return hexBytes(utf8Encoder.encode(v), upper);
    if (v instanceof Uint8Array) return hexBytes(v, upper);
    if (typeof v === 'bigint' || v instanceof UnsignedInt) return goIntegerBase(integer(v), 16, upper);
    return fail(
      `only integers, byte buffers, and strings can be formatted as hex, was given ${typeNameOf(v)}`,
    );
  },
  octal(v) {
    if (typeof v === 'bigint' || v instanceof UnsignedInt) return goIntegerBase(integer(v), 8);
    return fail(`octal clause can only be used on integers, was given ${typeNameOf(v)}`);
  },
};

// --- version 4 ----------------------------------------------------------------------------------------

function specDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return goShortestFixed(x);
}

function specString(v: unknown): string {
  switch (kind(v)) {
    case 'bool':
    case 'string':
      return String(v);
    case 'int':
    case 'uint':
      return integer(v).toString();
    case 'double':
      return specDouble(v as number);
    case 'bytes':
      return utf8Lossy.decode(v as Uint8Array);
    case 'duration':
      return formatDuration(v as Duration);
    case 'timestamp':
      return formatTimestamp(v as Date);
    case 'null':
      return 'null';
    case 'type':
      return typeValueName(v as { name: string });
    case 'list':
      return `[${(v as unknown[]).map(specString).join(', ')}]`;
    case 'map': {
      const entries = entriesOf(v).map(([k, x]) => [specString(k), specString(x)]);
      entries.sort((a, b) => byCodePoint(a[0], b[0]));
      return `{${entries.map(([k, x]) => `${k}: ${x}`).join(', ')}}`;
    }
    default:
      return fail(`${STRING_CLAUSE} ${typeNameOf(v)}`);
  }
}

/**
 * Go's output for a verb that does not apply to an integer, which is what cel-go 0.26 writes when
 * %f or %e meets an int: `%!f(int64=000005)` (the precision still pads the digits).
 */
function badVerb(verb: string, v: bigint | UnsignedInt, precision: number): string {
  const n = v instanceof UnsignedInt ? v.value : v;
  const digits = (n < 0n ? -n : n).toString().padStart(precision, '0');
  return `%!${verb}(${v instanceof UnsignedInt ? 'uint64' : 'int64'}=${n < 0n ? '-' : ''}${digits})`;
}

function specNumber(
  clause: string,
  verb: string,
  precision: number,
  v: unknown,
  render: (x: number) => string,
): string {
  if (typeof v === 'bigint' || v instanceof UnsignedInt) return badVerb(verb, v, precision);
  if (typeof v === 'number') return Number.isFinite(v) ? render(v) : specDouble(v);
  return fail(`${clause} clause can only be used on ints, uints, and doubles, was given ${typeNameOf(v)}`);
}

export const specFormatter: Formatter = {
  string: specString,
  decimal(v) {
    if (typeof v === 'bigint' || v instanceof UnsignedInt) return integer(v).toString();
    if (typeof v === 'number') return specDouble(v);
    return fail(`decimal clause can only be used on ints, uints, and doubles, was given ${typeNameOf(v)}`);
  },
  fixed:
    (p = 6) =>
    (v) =>
      specNumber('fixed-point', 'f', p, v, (x) => goFixed(x, p)),
  scientific:
    (p = 6) =>
    (v) =>
      specNumber('scientific', 'e', p, v, (x) => goScientific(x, p)),
  binary(v) {
    if (typeof v === 'boolean') return v ? '1' : '0';
    if (typeof v === 'bigint' || v instanceof UnsignedInt) return goIntegerBase(integer(v), 2);
    return fail(`only ints, uints, and bools can be formatted as binary, was given ${typeNameOf(v)}`);
  },
  hex: (upper) => (v) => {
    if (typeof v === 'bigint' || v instanceof UnsignedInt) return goIntegerBase(integer(v), 16, upper);
    if (typeof v === 'string') return hexBytes(utf8Encoder.encode(v), upper);
    if (v instanceof Uint8Array) return hexBytes(v, upper);
    return fail(`only ints, uints, bytes, and strings can be formatted as hex, was given ${typeNameOf(v)}`);
  },
  octal(v) {
    if (typeof v === 'bigint' || v instanceof UnsignedInt) return goIntegerBase(integer(v), 8);
    return fail(`octal clause can only be used on ints and uints, was given ${typeNameOf(v)}`);
  },
};
