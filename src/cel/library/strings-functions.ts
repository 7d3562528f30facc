// The functions of the strings extension on plain JavaScript strings, with cel-go's semantics:
// indices count code points (cel-go's runes), replace and split are Go's strings.Replace and
// strings.SplitN, trim is Go's strings.TrimSpace, and the errors carry cel-go's messages.
// strings.ts declares them as a CEL library.

import { stringSize as runeCount, utf8Length } from '../costs.ts';

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

export function charAt(s: string, i: bigint): string {
  const cps = codePoints(s);
  const n = BigInt(cps?.length ?? s.length);
  if (i < 0n || i > n) throw outOfRange(i);
  if (i === n) return '';
  return cps === undefined ? s[Number(i)] : cps[Number(i)];
}

export function indexOf(s: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  if (offset < 0n) throw outOfRange(offset);
  const cps = codePoints(s);
  const n = cps?.length ?? s.length;
  // Past the end is no match, not an error (cel-go's conformance run skips the tests saying otherwise).
  if (offset >= BigInt(n)) return -1n;
  const found = s.indexOf(sub, utf16Offset(cps, Number(offset)));
  return BigInt(cps === undefined ? found : codePointIndex(s, found));
}

export function lastIndexOf(s: string, sub: string, offset: bigint | undefined): bigint {
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

export function substring(s: string, start: bigint, end?: bigint): string {
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
export const lowerAscii = (x: string) => (/[A-Z]/.test(x) ? x.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : x);
export const upperAscii = (x: string) => (/[a-z]/.test(x) ? x.replace(/[a-z]+/g, (m) => m.toUpperCase()) : x);

/** Go's strings.Replace: at most n (all when negative) non-overlapping replacements, left to right. */
export function replace(s: string, old: string, rep: string, n: bigint): string {
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
export function split(s: string, sep: string, n: bigint): string[] {
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

/** Go's strings.TrimSpace. */
export const trimSpace = (x: string) => x.replace(TRIM, '');

/** By code points, as cel-go reverses runes. */
export const reverse = (x: string) => Array.from(x).reverse().join('');

export function join(list: readonly unknown[], sep: string): string {
  for (const v of list) if (typeof v !== 'string') throw new Error(`join: invalid input: ${String(v)}`);
  return (list as readonly string[]).join(sep);
}

/** strings.quote: a double-quoted CEL string literal; a lone surrogate becomes U+FFFD. */
export function quote(s: string): string {
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
