// Pruning removes members; a struct field that only has children in a set (`spec` when the set
// holds `spec.replicas`) is made a member too, so that a struct emptied of owned fields goes with
// them instead of staying behind as `{}`.

import { serializeElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { type Atom, fieldType, type TypeRef } from './types.ts';

export function ensureNamedFieldsAreMembers(set: FieldSet, t: TypeRef | undefined): FieldSet {
  const a: Atom | undefined = t?.atom();
  const out = new FieldSet();
  for (const [id, pe] of set.members) out.members.set(id, pe);
  for (const [id, c] of set.children) {
    let childType: TypeRef | undefined;
    if (a?.kind === 'map' && 'field' in c.pe) {
      if (a.fields.has(c.pe.field)) out.members.set(serializeElement(c.pe), c.pe);
      childType = fieldType(a, c.pe.field);
    } else if (a?.kind === 'list' && 'key' in c.pe) {
      childType = a.element;
    }
    out.children.set(id, { pe: c.pe, set: ensureNamedFieldsAreMembers(c.set, childType) });
  }
  return out;
}
