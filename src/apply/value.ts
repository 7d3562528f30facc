// JSON values as server-side apply sees them: a total order (so list keys and set values sort the
// same way everywhere), strict equality (null is a value, unlike an absent field), and the text a
// conflict message prints for a value.

import { goFloat, goQuote } from '../machinery/field-errors.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Rank of a value's type in the order: numbers, strings, booleans, lists, maps, null. */
function rank(v: Json): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v === null) return 5;
  return 4;
}

/** Strings in UTF-8 byte order, as Go compares them. */
export function compareStrings(a: string, b: string): number {
  // Byte order of UTF-8 equals code point order; UTF-16 order differs only past the BMP.
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** A total order over JSON values; 0 exactly when `valueEquals`. */
export function compareValues(a: Json, b: Json): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a === false ? -1 : 1;
    case 3: {
      const x = a as Json[];
      const y = b as Json[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareValues(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length - y.length < 0 ? -1 : x.length > y.length ? 1 : 0;
    }
    case 4: {
      const x = a as JsonObject;
      const y = b as JsonObject;
      const kx = Object.keys(x).sort(compareStrings);
      const ky = Object.keys(y).sort(compareStrings);
      for (let i = 0; i < Math.min(kx.length, ky.length); i++) {
        const c = compareStrings(kx[i], ky[i]) || compareValues(x[kx[i]], y[ky[i]]);
        if (c !== 0) return c;
      }
      return kx.length < ky.length ? -1 : kx.length > ky.length ? 1 : 0;
    }
    default:
      return 0;
  }
}

export function valueEquals(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valueEquals(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !valueEquals(a[k], b[k])) return false;
  return true;
}

/** How a value prints inside a field path of a conflict message (`[name="nginx"]`). */
export function valueToString(v: Json): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  return Object.keys(v)
    .map((k) => `${k}=${valueToString(v[k])}`)
    .join('');
}
