// The set of fields an object sets: every scalar, every atomic list or map as a whole, every list
// entry (and its fields), every map entry that is not a declared struct field, and empty or null
// values. This is what an applier claims to own.

import { field, type Path, pathToString } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { isObject, type Json } from '../value.ts';
import { itemElement, TypedError } from './list-items.ts';
import { atomFor, fieldType, type TypeRef } from './types.ts';

export function toFieldSet(v: Json, t: TypeRef): FieldSet {
  const set = new FieldSet();
  const findings: { path: string; message: string }[] = [];
  walk(v, t, [], set, findings);
  if (findings.length > 0) throw new TypedError(findings);
  return set;
}

function walk(v: Json, t: TypeRef, path: Path, set: FieldSet, findings: { path: string; message: string }[]) {
  const a = atomFor(t, v);
  if (a.kind === 'scalar' || a.kind === 'deduced') {
    set.insert(path);
    return;
  }
  if (a.atomic) {
    set.insert(path);
    return;
  }
  if (a.kind === 'list') {
    if (!Array.isArray(v)) return;
    v.forEach((item, i) => {
      let pe: ReturnType<typeof itemElement>;
      try {
        pe = itemElement(a, item);
      } catch (err) {
        findings.push({ path: pathToString(path), message: `element ${i}: ${(err as Error).message}` });
        return;
      }
      const p = [...path, pe];
      walk(item, a.element, p, set, findings);
      set.insert(p);
    });
    return;
  }
  if (!isObject(v)) return;
  for (const [k, val] of Object.entries(v)) {
    const p = [...path, field(k)];
    const tr = fieldType(a, k);
    if (tr === undefined) {
      findings.push({ path: pathToString(p), message: 'field not declared in schema' });
      continue;
    }
    walk(val, tr, p, set, findings);
    if (val === null || (isObject(val) && Object.keys(val).length === 0) || !a.fields.has(k)) set.insert(p);
  }
}
