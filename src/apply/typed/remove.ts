// Removes the paths of a set from an object: a member goes with everything below it; a child set
// is removed inside its value. Atomic values are removed whole or not at all. A map or list left
// empty by the removal goes too, as it would after Go decodes the result into its struct.

import { field, serializeElement } from '../fieldpath/element.ts';
import type { FieldSet } from '../fieldpath/set.ts';
import { isObject, type Json, type JsonObject } from '../value.ts';
import { itemElement } from './list-items.ts';
import { atomFor, DEDUCED, fieldType, type TypeRef } from './types.ts';

export function removeItems(v: Json, set: FieldSet, t: TypeRef): Json | undefined {
  const a = atomFor(t, v);
  if (a.kind === 'scalar' || a.kind === 'deduced' || a.atomic) return v;
  if (a.kind === 'list') {
    if (!Array.isArray(v) || v.length === 0) return v;
    const out: Json[] = [];
    for (const item of v) {
      let pe: ReturnType<typeof itemElement>;
      try {
        pe = itemElement(a, item);
      } catch {
        out.push(item);
        continue;
      }
      const id = serializeElement(pe);
      if (set.members.has(id)) continue;
      const sub = set.children.get(id)?.set;
      if (sub === undefined || sub.empty()) {
        out.push(item);
        continue;
      }
      const kept = removeItems(item, sub, a.element);
      if (kept !== undefined) out.push(kept);
    }
    return out.length > 0 ? out : undefined;
  }
  if (!isObject(v) || Object.keys(v).length === 0) return v;
  const out: JsonObject = {};
  for (const [k, val] of Object.entries(v)) {
    const id = serializeElement(field(k));
    if (set.members.has(id)) continue;
    const sub = set.children.get(id)?.set;
    if (sub === undefined || sub.empty()) {
      out[k] = val;
      continue;
    }
    const kept = removeItems(val, sub, fieldType(a, k) ?? DEDUCED);
    if (kept !== undefined) out[k] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
