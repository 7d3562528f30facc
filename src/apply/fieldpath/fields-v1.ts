// The FieldsV1 encoding of a set: a JSON object keyed by serialized elements, `{}` for a member
// without children, and `".": {}` inside a child that is also a member. Written in element order,
// as upstream writes it, so equal sets encode to equal bytes.

import { compareElements, type PathElement, parseElement, serializeElement } from './element.ts';
import { FieldSet } from './set.ts';

type FieldsV1 = { [key: string]: FieldsV1 };

export function toFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

function emit(set: FieldSet, self: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  const members = set.sortedMembers();
  const children = set.sortedChildren().filter((c) => !c.set.empty());
  if (self && (members.length > 0 || children.length > 0)) out['.'] = {};
  const childIds = new Set(children.map((c) => serializeElement(c.pe)));
  const entries: [PathElement, FieldsV1][] = [];
  for (const pe of members) {
    if (!childIds.has(serializeElement(pe))) entries.push([pe, {}]);
  }
  for (const c of children) {
    entries.push([c.pe, emit(c.set, set.members.has(serializeElement(c.pe)))]);
  }
  // Members and children interleave in one element order.
  const ordered = entries.sort((a, b) => compareElements(a[0], b[0]));
  for (const [pe, v] of ordered) out[serializeElement(pe)] = v;
  return out;
}

/** Reads FieldsV1; throws on a malformed key or a value that is not an object. */
export function fromFieldsV1(raw: unknown): FieldSet {
  const set = new FieldSet();
  read(raw, set);
  return set;
}

/** Fills `into` with the entries of `raw`; answers whether `raw` marks its own node a member. */
function read(raw: unknown, into: FieldSet): boolean {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error('expected an object in FieldsV1');
  }
  let member = false;
  let any = false;
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (k === '.') {
      member = true;
      continue;
    }
    const pe = parseElement(k);
    if (pe === undefined) continue;
    any = true;
    const child = new FieldSet();
    const childMember = read(v, child);
    const id = serializeElement(pe);
    if (childMember) into.members.set(id, pe);
    if (!child.empty()) into.children.set(id, { pe, set: child });
  }
  return member || !any;
}
