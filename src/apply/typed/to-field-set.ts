// The set of fields an object sets: every scalar, every atomic list or map as a whole, every list
// entry (and its fields), every map entry that is not a declared struct field, and empty or null
// values. This is what an applier claims to own.

import { field, type PathElement, pathToString, serializeElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { isObject, type Json } from '../value.ts';
import { itemElement, TypedError } from './list-items.ts';
import { atomFor, fieldType, type TypeRef } from './types.ts';

export function toFieldSet(v: Json, t: TypeRef): FieldSet {
  const set = new FieldSet();
  const findings: { path: string; message: string }[] = [];
  walk(v, t, new Position(set, undefined, undefined), findings);
  if (findings.length > 0) throw new TypedError(findings);
  return set;
}

/**
 * Where the walk is: a chain of elements (a path is spelled out only for a finding) and, once a
 * path below it is inserted, the set under it. An object with 300,000 keys then costs one set
 * lookup per key, not a copy of its path and a descent from the root.
 */
class Position {
  private under: FieldSet | undefined;

  constructor(
    private readonly root: FieldSet,
    readonly parent: Position | undefined,
    readonly pe: PathElement | undefined,
  ) {}

  /** The set of the paths below this one, created on first use as FieldSet.insert creates it. */
  below(): FieldSet {
    if (this.parent === undefined || this.pe === undefined) return this.root;
    this.under ??= this.parent.below().descend(this.pe);
    return this.under;
  }

  /** Adds this path to the set (the root path is no member). */
  insert(): void {
    if (this.parent === undefined || this.pe === undefined) return;
    this.parent.below().members.set(serializeElement(this.pe), this.pe);
  }

  child(pe: PathElement): Position {
    return new Position(this.root, this, pe);
  }

  toString(): string {
    const elements: PathElement[] = [];
    for (let p: Position | undefined = this; p?.pe !== undefined; p = p.parent) elements.push(p.pe);
    return pathToString(elements.reverse());
  }
}

function walk(v: Json, t: TypeRef, at: Position, findings: { path: string; message: string }[]) {
  const a = atomFor(t, v);
  if (a.kind === 'scalar' || a.kind === 'deduced') {
    at.insert();
    return;
  }
  if (a.atomic) {
    at.insert();
    return;
  }
  if (a.kind === 'list') {
    if (!Array.isArray(v)) return;
    v.forEach((item, i) => {
      let pe: ReturnType<typeof itemElement>;
      try {
        pe = itemElement(a, item);
      } catch (err) {
        findings.push({ path: at.toString(), message: `element ${i}: ${(err as Error).message}` });
        return;
      }
      const p = at.child(pe);
      walk(item, a.element, p, findings);
      p.insert();
    });
    return;
  }
  if (!isObject(v)) return;
  for (const [k, val] of Object.entries(v)) {
    const p = at.child(field(k));
    const tr = fieldType(a, k);
    if (tr === undefined) {
      findings.push({ path: p.toString(), message: 'field not declared in schema' });
      continue;
    }
    walk(val, tr, p, findings);
    if (val === null || (isObject(val) && Object.keys(val).length === 0) || !a.fields.has(k)) p.insert();
  }
}
