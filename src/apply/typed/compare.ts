// What changed between two objects, as field sets: added, modified and removed. A leaf (scalar,
// atomic list or map, or a list or map empty on both sides) is compared whole; a granular list or
// map is compared entry by entry, and is itself added or removed when one side lacks it.

import { field, type Path, type PathElement, serializeElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { isObject, type Json, valueEquals } from '../value.ts';
import { itemElement } from './list-items.ts';
import { atomForPair, DEDUCED, fieldType, type TypeRef } from './types.ts';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compare(lhs: Json | undefined, rhs: Json | undefined, t: TypeRef): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(lhs, rhs, t, [], c);
  return c;
}

function isEmptyList(v: Json | undefined): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

function isEmptyMap(v: Json | undefined): boolean {
  return v === undefined || v === null || (isObject(v) && Object.keys(v).length === 0);
}

function leaf(l: Json | undefined, r: Json | undefined, path: Path, c: Comparison): void {
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!valueEquals(l, r)) c.modified.insert(path);
}

function walk(l: Json | undefined, r: Json | undefined, t: TypeRef, path: Path, c: Comparison): void {
  if (l === undefined && r === undefined) return;
  const a = atomForPair(t, l, r);
  if (a.kind === 'scalar' || a.kind === 'deduced') {
    leaf(l, r, path, c);
    return;
  }
  if (a.kind === 'list') {
    if (a.atomic || (isEmptyList(l) && isEmptyList(r))) {
      leaf(l, r, path, c);
      return;
    }
    if (!Array.isArray(l ?? []) || !Array.isArray(r ?? [])) {
      leaf(l, r, path, c);
      return;
    }
    compareItems(Array.isArray(l) ? l : [], Array.isArray(r) ? r : [], a, path, c);
  } else {
    if (a.atomic || (isEmptyMap(l) && isEmptyMap(r))) {
      leaf(l, r, path, c);
      return;
    }
    const lm = isObject(l) ? l : {};
    const rm = isObject(r) ? r : {};
    if ((l != null && !isObject(l)) || (r != null && !isObject(r))) {
      leaf(l, r, path, c);
      return;
    }
    for (const k of Object.keys(lm))
      walk(
        lm[k],
        Object.hasOwn(rm, k) ? rm[k] : undefined,
        fieldType(a, k) ?? DEDUCED,
        [...path, field(k)],
        c,
      );
    for (const k of Object.keys(rm)) {
      if (!Object.hasOwn(lm, k)) walk(undefined, rm[k], fieldType(a, k) ?? DEDUCED, [...path, field(k)], c);
    }
  }
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
}

type ListAtom = Parameters<typeof itemElement>[0];

/** Entries by element; an element seen twice on one side compares as a whole. */
function compareItems(l: Json[], r: Json[], a: ListAtom, path: Path, c: Comparison): void {
  const order: PathElement[] = [];
  const left = new Map<string, Json[]>();
  const right = new Map<string, Json[]>();
  const index = (items: Json[], into: Map<string, Json[]>, other: Map<string, Json[]>) => {
    for (const item of items) {
      let pe: PathElement;
      try {
        pe = itemElement(a, item);
      } catch {
        continue;
      }
      const id = serializeElement(pe);
      const seen = into.get(id);
      if (seen !== undefined) seen.push(item);
      else {
        into.set(id, [item]);
        if (!other.has(id)) order.push(pe);
      }
    }
  };
  index(l, left, new Map());
  index(r, right, left);
  for (const pe of order) {
    const id = serializeElement(pe);
    const ls = left.get(id) ?? [];
    const rs = right.get(id) ?? [];
    const p = [...path, pe];
    if (ls.length <= 1 && rs.length <= 1) {
      walk(ls[0], rs[0], a.element, p, c);
    } else if (ls.length >= 2 && rs.length >= 2) {
      if (ls.length !== rs.length || ls.some((x, i) => !valueEquals(x, rs[i]))) c.modified.insert(p);
    } else if (ls.length >= 2) {
      if (rs.length !== 0) walk(undefined, rs[0], a.element, p, c);
      c.removed.insert(p);
    } else {
      if (ls.length !== 0) walk(ls[0], undefined, a.element, p, c);
      c.added.insert(p);
    }
  }
}
