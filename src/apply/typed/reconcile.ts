// Spec rule 6: ownership recorded under an older schema meets the current one. Where a list or map
// became atomic, a manager that owned parts of it now owns it whole (so later changes by others
// conflict). Where an atomic value became granular nothing is reassigned.

import type { Path, PathElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { type Atom, fieldType, type TypeRef } from './types.ts';

/** The set adjusted to the current schema, or the same set when nothing changed. */
export function reconcileWithSchema(set: FieldSet, t: TypeRef): FieldSet {
  const collapse: Path[] = [];
  visitChildren(set, t.atom(), [], collapse);
  if (collapse.length === 0) return set;
  const paths = FieldSet.of(...collapse);
  return set.recursiveDifference(paths).union(paths);
}

function typeOf(parent: Atom, pe: PathElement): TypeRef | undefined {
  if (parent.kind === 'map' && 'field' in pe) return fieldType(parent, pe.field);
  if (parent.kind === 'list' && !('field' in pe)) return parent.element;
  return undefined;
}

function visitChildren(node: FieldSet, a: Atom, path: Path, collapse: Path[]): void {
  if (a.kind !== 'map' && a.kind !== 'list') return;
  for (const c of node.children.values()) {
    const tr = typeOf(a, c.pe);
    if (tr === undefined || c.set.empty()) continue;
    const child = tr.atom();
    const p = [...path, c.pe];
    // Parts of a value owned granularly, where the value is now atomic: own it whole.
    if ((child.kind === 'list' || child.kind === 'map') && child.atomic) {
      collapse.push(p);
      continue;
    }
    visitChildren(c.set, child, p, collapse);
  }
}
