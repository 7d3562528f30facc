// One step of a field path: a struct or map field (`f:name`), a list-map entry by its keys
// (`k:{"name":"nginx"}`), a set entry by value (`v:"a"`), or a list index (`i:3`). Elements order
// as fields, keys, values, indexes; the serialized form doubles as an identity for maps.

import { goJson } from '../../machinery/field-errors.ts';
import { compareStrings, compareValues, type Json, valueToString } from '../value.ts';

export type PathElement =
  | { readonly field: string }
  | { readonly key: ReadonlyArray<readonly [string, Json]> }
  | { readonly value: Json }
  | { readonly index: number };

export type Path = readonly PathElement[];

export const field = (name: string): PathElement => ({ field: name });
export const index = (i: number): PathElement => ({ index: i });
export const setValue = (v: Json): PathElement => ({ value: v });

/** A list-map entry's element; key fields sort by name. */
export function keyElement(fields: Iterable<readonly [string, Json]>): PathElement {
  return { key: [...fields].sort((a, b) => compareStrings(a[0], b[0])) };
}

function kindRank(pe: PathElement): number {
  if ('field' in pe) return 0;
  if ('key' in pe) return 1;
  if ('value' in pe) return 2;
  return 3;
}

export function compareElements(a: PathElement, b: PathElement): number {
  const ra = kindRank(a);
  const rb = kindRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if ('field' in a) return compareStrings(a.field, (b as { field: string }).field);
  if ('key' in a) {
    const x = a.key;
    const y = (b as { key: ReadonlyArray<readonly [string, Json]> }).key;
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const c = compareStrings(x[i][0], y[i][0]) || compareValues(x[i][1], y[i][1]);
      if (c !== 0) return c;
    }
    return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
  }
  if ('value' in a) return compareValues(a.value, (b as { value: Json }).value);
  const j = (b as { index: number }).index;
  return a.index < j ? -1 : a.index > j ? 1 : 0;
}

/** The FieldsV1 key of an element; equal elements serialize equally. */
export function serializeElement(pe: PathElement): string {
  if ('field' in pe) return `f:${pe.field}`;
  if ('key' in pe) return `k:{${pe.key.map(([n, v]) => `${goJson(n)}:${goJson(v)}`).join(',')}}`;
  if ('value' in pe) return `v:${goJson(pe.value)}`;
  return `i:${pe.index}`;
}

/** Reads a FieldsV1 key; undefined for an element type this server does not know (skipped). */
export function parseElement(s: string): PathElement | undefined {
  if (s.length < 2 || s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { field: rest };
    case 'v':
      return { value: JSON.parse(rest) as Json };
    case 'k': {
      const parsed: unknown = JSON.parse(rest);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error(`key element is not an object: ${s}`);
      return keyElement(Object.entries(parsed as Record<string, Json>));
    }
    case 'i': {
      if (!/^-?\d+$/.test(rest)) throw new Error(`invalid index: ${s}`);
      return { index: Number(rest) };
    }
    default:
      return undefined;
  }
}

/** How an element prints in a conflict message: `.name`, `[name="nginx"]`, `[="a"]`, `[3]`. */
export function elementToString(pe: PathElement): string {
  if ('field' in pe) return `.${pe.field}`;
  if ('key' in pe) return `[${pe.key.map(([n, v]) => `${n}=${valueToString(v)}`).join(',')}]`;
  if ('value' in pe) return `[=${valueToString(pe.value)}]`;
  return `[${pe.index}]`;
}

export function pathToString(p: Path): string {
  return p.map(elementToString).join('');
}
