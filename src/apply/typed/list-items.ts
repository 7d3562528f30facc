// How a list entry is named in a field path: a list map's entry by its key fields (a missing key
// takes the key field's schema default), a set's entry by its value. Walks that meet an entry that
// cannot be named report it as upstream does.

import { keyElement, type PathElement } from '../fieldpath/element.ts';
import { isObject, type Json } from '../value.ts';
import { type Atom, defaultOf, fieldType } from './types.ts';

/** A typed walk's finding: the path where it happened and what is wrong. */
export class TypedError extends Error {
  constructor(readonly findings: readonly { path: string; message: string }[]) {
    super(
      findings.length === 1
        ? `${findings[0].path}: ${findings[0].message}`
        : `errors:\n  ${findings.map((f) => `${f.path}: ${f.message}`).join('\n  ')}`,
    );
  }
}

type ListAtom = Atom & { kind: 'list' };

/** The element naming `item` in a non-atomic list; throws a plain message when it has none. */
export function itemElement(list: ListAtom, item: Json): PathElement {
  if (list.keys.length > 0) {
    if (item === null) throw new Error('associative list with keys may not have a null element');
    if (!isObject(item)) throw new Error('associative list with keys may not have non-map elements');
    const fields: [string, Json][] = [];
    const element = list.element.atom();
    for (const k of list.keys) {
      if (Object.hasOwn(item, k)) {
        fields.push([k, item[k]]);
        continue;
      }
      const def = element.kind === 'map' ? defaultOf(fieldType(element, k)) : undefined;
      if (def !== undefined) fields.push([k, def]);
    }
    if (fields.length === 0) {
      throw new Error(
        `associative list with keys has an element that omits all key fields ${goStringList(list.keys)} (and doesn't have default values for any key fields)`,
      );
    }
    return keyElement(fields);
  }
  if (isObject(item)) throw new Error("associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new Error('not supported: associative list with lists as elements');
  if (item === null) throw new Error("associative list without keys has an element that's an explicit null");
  return { value: item };
}

function goStringList(xs: readonly string[]): string {
  return `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;
}
