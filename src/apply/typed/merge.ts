// Merges an applied configuration (rhs) into the live object (lhs): leaves take the configuration's
// value, granular maps merge key by key, list maps and sets merge entry by entry. Entries only the
// live object has keep their place; entries both have follow the configuration's order.

import { type PathElement, serializeElement } from '../fieldpath/element.ts';
import { isObject, type Json, type JsonObject } from '../value.ts';
import { itemElement } from './list-items.ts';
import { atomForPair, DEDUCED, fieldType, type TypeRef } from './types.ts';

export function merge(lhs: Json | undefined, rhs: Json | undefined, t: TypeRef): Json | undefined {
  if (lhs === undefined && rhs === undefined) return undefined;
  const a = atomForPair(t, lhs, rhs);
  const keepRight = rhs !== undefined ? rhs : lhs;
  if (a.kind === 'scalar' || a.kind === 'deduced' || a.atomic) return keepRight;
  if (a.kind === 'list') {
    const l = Array.isArray(lhs) ? lhs : [];
    const r = Array.isArray(rhs) ? rhs : [];
    if (l.length === 0 && r.length === 0) return keepRight;
    if ((lhs != null && !Array.isArray(lhs)) || (rhs != null && !Array.isArray(rhs))) return keepRight;
    return mergeItems(l, r, a);
  }
  const l = isObject(lhs) ? lhs : {};
  const r = isObject(rhs) ? rhs : {};
  if (Object.keys(l).length === 0 && Object.keys(r).length === 0) return keepRight;
  if ((lhs != null && !isObject(lhs)) || (rhs != null && !isObject(rhs))) return keepRight;
  const out: JsonObject = {};
  for (const k of Object.keys(l)) {
    const v = merge(l[k], Object.hasOwn(r, k) ? r[k] : undefined, fieldType(a, k) ?? DEDUCED);
    if (v !== undefined) out[k] = v;
  }
  for (const k of Object.keys(r)) {
    if (Object.hasOwn(l, k)) continue;
    const v = merge(undefined, r[k], fieldType(a, k) ?? DEDUCED);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

type ListAtom = Parameters<typeof itemElement>[0];

interface Indexed {
  pes: PathElement[];
  ids: string[];
  byId: Map<string, Json>;
}

function indexItems(items: Json[], a: ListAtom): Indexed {
  const out: Indexed = { pes: [], ids: [], byId: new Map() };
  for (const item of items) {
    const pe = itemElement(a, item);
    const id = serializeElement(pe);
    // An entry the live object holds twice merges as null: neither copy is the one to keep.
    out.byId.set(id, out.byId.has(id) ? null : item);
    out.pes.push(pe);
    out.ids.push(id);
  }
  return out;
}

function mergeItems(l: Json[], r: Json[], a: ListAtom): Json[] {
  const rhs = indexItems(r, a);
  const lhs = indexItems(l, a);
  const shared = rhs.ids.filter((id) => lhs.byId.has(id));
  let next = 0;
  const nextShared = () => (next < shared.length ? shared[next] : undefined);
  const done = new Set<string>();
  const out: Json[] = [];
  const push = (v: Json | undefined) => {
    if (v !== undefined) out.push(v);
  };
  let li = 0;
  let ri = 0;
  while (li < lhs.ids.length || ri < rhs.ids.length) {
    if (li < lhs.ids.length && ri < rhs.ids.length) {
      const id = lhs.ids[li];
      if (id === rhs.ids[ri]) {
        done.add(id);
        push(merge(lhs.byId.get(id), rhs.byId.get(id), a.element));
        li++;
        ri++;
        next++;
        continue;
      }
      const want = nextShared();
      if (rhs.byId.has(id) && want !== undefined && want !== id) {
        li++;
        continue;
      }
    }
    if (li < lhs.ids.length) {
      const id = lhs.ids[li];
      if (!rhs.byId.has(id)) {
        push(merge(l[li], undefined, a.element));
        li++;
        continue;
      }
      if (done.has(id)) li++;
    }
    if (ri < rhs.ids.length) {
      const id = rhs.ids[ri];
      done.add(id);
      push(merge(lhs.byId.get(id), rhs.byId.get(id), a.element));
      ri++;
      if (nextShared() === id) next++;
    }
  }
  return out;
}
