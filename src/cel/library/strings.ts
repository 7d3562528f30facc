// cel-go's strings extension (ext.Strings, library `cel.lib.ext.strings`) by its versions:
// 0 charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join;
// 1 format and strings.quote; 2 join over any list of strings; 3 reverse; 4 format as the CEL
// specification words it. kube-apiserver 1.35 enables version 2 (pkg/cel/environment/base.go,
// since 1.29). Indices count code points, as cel-go's runes do; the engine declares some of these
// functions itself with UTF-16 semantics, and declaring them here replaces those.
// Costs are upstream's (kube-apiserver's CostEstimator and cel-go's defaults): a scan of the
// receiver for lowerAscii, upperAscii, substring and trim, twice that for replace and split, the
// result for join, UTF-8 bytes for indexOf and lastIndexOf, the format string for format.

import type { CelLibrary, CelOverload, SizeRange } from '../environment.ts';
import { T } from '../types.ts';
import { runeCount, traversal, traversalEstimate, utf8Length } from './strings-cost.ts';
import { formatString } from './strings-format.ts';

/** The strings library version kube-apiserver 1.35 enables (ext.StringsVersion(2)). */
export const KUBE_STRINGS_VERSION = 2;
/** The newest version cel-go has (its default when no version is given). */
export const LATEST_STRINGS_VERSION = 4;

// --- code points --------------------------------------------------------------------------------

const SURROGATE = /[\uD800-\uDFFF]/;

/** The code points of a string, or undefined when each is one UTF-16 unit (no work needed). */
function codePoints(s: string): string[] | undefined {
  return SURROGATE.test(s) ? Array.from(s) : undefined;
}

/** The UTF-16 offset of code point `i` (i at most the number of code points). */
function utf16Offset(cps: readonly string[] | undefined, i: number): number {
  if (cps === undefined) return i;
  let off = 0;
  for (let k = 0; k < i; k++) off += cps[k].length;
  return off;
}

/** The code point index of a UTF-16 offset that starts a code point. */
function codePointIndex(s: string, off: number): number {
  return off < 0 ? off : runeCount(s.slice(0, off));
}

function outOfRange(i: bigint): Error {
  return new Error(`index out of range: ${i}`);
}

// --- the functions --------------------------------------------------------------------------------

function charAt(s: string, i: bigint): string {
  const cps = codePoints(s);
  const n = BigInt(cps?.length ?? s.length);
  if (i < 0n || i > n) throw outOfRange(i);
  if (i === n) return '';
  return cps === undefined ? s[Number(i)] : cps[Number(i)];
}

function indexOf(s: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  if (offset < 0n) throw outOfRange(offset);
  const cps = codePoints(s);
  const n = cps?.length ?? s.length;
  // Past the end is no match, not an error (cel-go's conformance run skips the tests saying otherwise).
  if (offset >= BigInt(n)) return -1n;
  const found = s.indexOf(sub, utf16Offset(cps, Number(offset)));
  return BigInt(cps === undefined ? found : codePointIndex(s, found));
}

function lastIndexOf(s: string, sub: string, offset: bigint | undefined): bigint {
  const cps = codePoints(s);
  const n = cps?.length ?? s.length;
  if (offset === undefined) {
    if (sub === '') return BigInt(n);
    if (utf8Length(s) < utf8Length(sub)) return -1n;
    offset = BigInt(n - 1);
  }
  if (sub === '') return offset;
  if (offset < 0n) throw outOfRange(offset);
  if (offset >= BigInt(n)) return -1n;
  const last = Math.min(Number(offset), n - runeCount(sub));
  if (last < 0) return -1n;
  const found = s.lastIndexOf(sub, utf16Offset(cps, last));
  return BigInt(cps === undefined ? found : codePointIndex(s, found));
}

function substring(s: string, start: bigint, end?: bigint): string {
  const cps = codePoints(s);
  const n = BigInt(cps?.length ?? s.length);
  if (end !== undefined && start > end)
    throw new Error(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > n) throw outOfRange(start);
  if (end !== undefined && (end < 0n || end > n)) throw outOfRange(end);
  const a = Number(start);
  const b = end === undefined ? undefined : Number(end);
  return cps === undefined ? s.slice(a, b) : cps.slice(a, b).join('');
}

// toLowerCase would map non-ASCII letters too (Æ, Σ); only A-Z and a-z change here.
const lowerAscii = (x: string) => (/[A-Z]/.test(x) ? x.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : x);
const upperAscii = (x: string) => (/[a-z]/.test(x) ? x.replace(/[a-z]+/g, (m) => m.toUpperCase()) : x);

/** Go's strings.Replace: at most n (all when negative) non-overlapping replacements, left to right. */
function replace(s: string, old: string, rep: string, n: bigint): string {
  if (old === rep || n === 0n) return s;
  let out = '';
  let start = 0;
  let done = 0n;
  if (old === '') {
    // An empty pattern matches before every code point and at the end.
    for (const cp of s) {
      if (n >= 0n && done >= n) break;
      out += rep + cp;
      start += cp.length;
      done++;
    }
    if (start === s.length && (n < 0n || done < n)) return out + rep;
    return out + s.slice(start);
  }
  while (n < 0n || done < n) {
    const j = s.indexOf(old, start);
    if (j < 0) break;
    out += s.slice(start, j) + rep;
    start = j + old.length;
    done++;
  }
  return out + s.slice(start);
}

/** Go's strings.SplitN: n == 0 none, n < 0 all, otherwise at most n pieces (the last the rest). */
function split(s: string, sep: string, n: bigint): string[] {
  if (n === 0n) return [];
  if (sep === '') {
    const cps = Array.from(s);
    if (n < 0n || n >= BigInt(cps.length)) return cps;
    const k = Number(n);
    return [...cps.slice(0, k - 1), cps.slice(k - 1).join('')];
  }
  const out: string[] = [];
  let start = 0;
  while (n < 0n || BigInt(out.length) < n - 1n) {
    const j = s.indexOf(sep, start);
    if (j < 0) break;
    out.push(s.slice(start, j));
    start = j + sep.length;
  }
  out.push(s.slice(start));
  return out;
}

/** Go's unicode.IsSpace: ASCII and Latin-1 spaces and the Unicode White_Space property. */
const SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]';
const TRIM = new RegExp(`^${SPACE}+|${SPACE}+$`, 'g');

function join(list: readonly unknown[], sep: string): string {
  for (const v of list) if (typeof v !== 'string') throw new Error(`join: invalid input: ${String(v)}`);
  return (list as readonly string[]).join(sep);
}

/** strings.quote: a double-quoted CEL string literal; a lone surrogate becomes U+FFFD. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\x07':
        out += '\\a';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\v':
        out += '\\v';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '"':
        out += '\\"';
        break;
      default:
        // A pair is one code point of two units; a surrogate alone is not a character.
        out += ch.length === 1 && SURROGATE.test(ch) ? '\uFFFD' : ch;
    }
  }
  return `${out}"`;
}

// --- declarations ------------------------------------------------------------------------------------

const receiverScan = (args: readonly unknown[]) => traversal(runeCount(args[0] as string));
const receiverScanTwice = (args: readonly unknown[]) => traversal(runeCount(args[0] as string), 0.2);
/** indexOf and lastIndexOf: upstream's traversalCost, whole tenths of the UTF-8 length. */
const byteScan = (args: readonly unknown[]) => Math.floor(utf8Length(args[0] as string) * 0.1);
const sizeOfReceiver = (sizes: readonly SizeRange[]) => sizes[0];

function scanning(
  o: Omit<CelOverload, 'cost' | 'estimateCost' | 'estimateResultSize'>,
  factor = 0.1,
): CelOverload {
  return {
    ...o,
    cost: factor === 0.1 ? receiverScan : receiverScanTwice,
    estimateCost: (sizes) => traversalEstimate(sizes[0], factor),
  };
}

function joinCost(args: readonly unknown[]): number {
  const list = args[0] as readonly unknown[];
  const sep = (args[1] as string | undefined) ?? '';
  let size = list.length > 0 ? runeCount(sep) * (list.length - 1) : 0;
  for (const v of list) if (typeof v === 'string') size += runeCount(v);
  return traversal(size, 0.2);
}

const s = T.string;
const i = T.int;

function declarations(version: number): CelLibrary['functions'] {
  const fns: CelLibrary['functions'][number][] = [
    {
      name: 'charAt',
      overloads: [{ id: 'string_char_at_int', receiver: s, params: [i], result: s, impl: charAt }],
    },
    {
      name: 'indexOf',
      overloads: [
        {
          id: 'string_index_of_string',
          receiver: s,
          params: [s],
          result: i,
          impl: (x: string, y: string) => indexOf(x, y, 0n),
          cost: byteScan,
          estimateCost: (z) => traversalEstimate(z[0]),
        },
        {
          id: 'string_index_of_string_int',
          receiver: s,
          params: [s, i],
          result: i,
          impl: indexOf,
          cost: byteScan,
          estimateCost: (z) => traversalEstimate(z[0]),
        },
      ],
    },
    {
      name: 'lastIndexOf',
      overloads: [
        {
          id: 'string_last_index_of_string',
          receiver: s,
          params: [s],
          result: i,
          impl: (x: string, y: string) => lastIndexOf(x, y, undefined),
          cost: byteScan,
          estimateCost: (z) => traversalEstimate(z[0]),
        },
        {
          id: 'string_last_index_of_string_int',
          receiver: s,
          params: [s, i],
          result: i,
          impl: lastIndexOf,
          cost: byteScan,
          estimateCost: (z) => traversalEstimate(z[0]),
        },
      ],
    },
    {
      name: 'lowerAscii',
      overloads: [
        {
          ...scanning({
            id: 'string_lower_ascii',
            receiver: s,
            params: [],
            result: s,
            impl: lowerAscii,
          }),
          estimateResultSize: sizeOfReceiver,
        },
      ],
    },
    {
      name: 'upperAscii',
      overloads: [
        {
          ...scanning({
            id: 'string_upper_ascii',
            receiver: s,
            params: [],
            result: s,
            impl: upperAscii,
          }),
          estimateResultSize: sizeOfReceiver,
        },
      ],
    },
    {
      name: 'replace',
      overloads: [
        scanning(
          {
            id: 'string_replace_string_string',
            receiver: s,
            params: [s, s],
            result: s,
            impl: (x: string, o: string, n: string) => replace(x, o, n, -1n),
          },
          0.2,
        ),
        scanning(
          {
            id: 'string_replace_string_string_int',
            receiver: s,
            params: [s, s, i],
            result: s,
            impl: replace,
          },
          0.2,
        ),
      ],
    },
    {
      name: 'split',
      overloads: [
        {
          ...scanning(
            {
              id: 'string_split_string',
              receiver: s,
              params: [s],
              result: T.list(s),
              impl: (x: string, sep: string) => split(x, sep, -1n),
            },
            0.2,
          ),
          estimateResultSize: (z) => ({ min: 0, max: z[0].max }),
        },
        {
          ...scanning(
            { id: 'string_split_string_int', receiver: s, params: [s, i], result: T.list(s), impl: split },
            0.2,
          ),
          estimateResultSize: (z) => ({ min: 0, max: z[0].max }),
        },
      ],
    },
    {
      name: 'substring',
      overloads: [
        {
          ...scanning({
            id: 'string_substring_int',
            receiver: s,
            params: [i],
            result: s,
            impl: (x: string, a: bigint) => substring(x, a),
          }),
          estimateResultSize: sizeOfReceiver,
        },
        {
          ...scanning({
            id: 'string_substring_int_int',
            receiver: s,
            params: [i, i],
            result: s,
            impl: substring,
          }),
          estimateResultSize: sizeOfReceiver,
        },
      ],
    },
    {
      name: 'trim',
      overloads: [
        {
          ...scanning({
            id: 'string_trim',
            receiver: s,
            params: [],
            result: s,
            impl: (x: string) => x.replace(TRIM, ''),
          }),
          estimateResultSize: sizeOfReceiver,
        },
      ],
    },
    {
      name: 'join',
      overloads: [
        {
          id: 'list_join',
          receiver: T.list(s),
          params: [],
          result: s,
          impl: (l: unknown[]) => join(l, ''),
          cost: joinCost,
        },
        { id: 'list_join_string', receiver: T.list(s), params: [s], result: s, impl: join, cost: joinCost },
      ],
    },
  ];
  if (version >= 1) {
    fns.push(
      {
        name: 'format',
        overloads: [
          scanning({
            id: 'string_format',
            receiver: s,
            params: [T.list(T.dyn)],
            result: s,
            impl: (f: string, args: unknown[]) => formatString(version, f, args),
          }),
        ],
      },
      {
        name: 'strings.quote',
        overloads: [scanning({ id: 'strings_quote', params: [s], result: s, impl: quote })],
      },
    );
  }
  if (version >= 3) {
    fns.push({
      name: 'reverse',
      overloads: [
        {
          id: 'string_reverse',
          receiver: s,
          params: [],
          result: s,
          impl: (x: string) => Array.from(x).reverse().join(''),
          estimateResultSize: sizeOfReceiver,
        },
      ],
    });
  }
  return fns;
}

const byVersion = new Map<number, CelLibrary>();

/**
 * The strings extension at a version (default: the newest, as cel-go's default). One library
 * object per version, so environments that list the same version share it.
 */
export function stringsLibrary(version = LATEST_STRINGS_VERSION): CelLibrary {
  let lib = byVersion.get(version);
  if (lib === undefined) {
    lib = Object.freeze({ name: 'cel.lib.ext.strings', version, functions: declarations(version) });
    byVersion.set(version, lib);
  }
  return lib;
}
