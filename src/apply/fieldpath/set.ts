// A set of field paths as a tree: at each node, the elements that are members themselves and the
// elements under which deeper paths continue. A path can be both (`.` in FieldsV1): a list entry
// is owned as a whole and field by field. Every operation returns a new set.

import { compareElements, type Path, type PathElement, serializeElement } from './element.ts';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

export class FieldSet {
  readonly members = new Map<string, PathElement>();
  readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  insert(p: Path): void {
    if (p.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < p.length - 1; i++) node = node.descend(p[i]);
    node.members.set(serializeElement(p[p.length - 1]), p[p.length - 1]);
  }

  /** The child set under `pe`, created when absent. */
  descend(pe: PathElement): FieldSet {
    const id = serializeElement(pe);
    let c = this.children.get(id);
    if (c === undefined) {
      c = { pe, set: new FieldSet() };
      this.children.set(id, c);
    }
    return c.set;
  }

  /** The paths below `pe` (without it); empty when there are none. */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(serializeElement(pe))?.set ?? new FieldSet();
  }

  has(p: Path): boolean {
    let node: FieldSet | undefined = this;
    for (let i = 0; i < p.length - 1 && node !== undefined; i++) {
      node = node.children.get(serializeElement(p[i]))?.set;
    }
    return node !== undefined && p.length > 0 && node.members.has(serializeElement(p[p.length - 1]));
  }

  empty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  union(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, pe] of o.members) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const other = o.children.get(id);
      out.children.set(id, other === undefined ? c : { pe: c.pe, set: c.set.union(other.set) });
    }
    for (const [id, c] of o.children) if (!this.children.has(id)) out.children.set(id, c);
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const other = o.children.get(id);
      if (other === undefined) continue;
      const both = c.set.intersection(other.set);
      if (!both.empty()) out.children.set(id, { pe: c.pe, set: both });
    }
    return out;
  }

  /** Paths of this set that are not in `o`; a member of `o` does not remove paths below it. */
  difference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const other = o.children.get(id);
      if (other === undefined) {
        out.children.set(id, c);
        continue;
      }
      const rest = c.set.difference(other.set);
      if (!rest.empty()) out.children.set(id, { pe: c.pe, set: rest });
    }
    return out;
  }

  /** Like difference, but a member of `o` also removes every path below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      if (o.members.has(id)) continue;
      const other = o.children.get(id);
      if (other === undefined) {
        out.children.set(id, c);
        continue;
      }
      const rest = c.set.recursiveDifference(other.set);
      if (!rest.empty()) out.children.set(id, { pe: c.pe, set: rest });
    }
    return out;
  }

  sortedMembers(): PathElement[] {
    return [...this.members.values()].sort(compareElements);
  }

  sortedChildren(): Child[] {
    return [...this.children.values()].sort((a, b) => compareElements(a.pe, b.pe));
  }

  /** Every member path: a node's own members first, then its children's, in element order. */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const pe of this.sortedMembers()) out.push([...prefix, pe]);
    for (const c of this.sortedChildren()) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  equals(o: FieldSet): boolean {
    return this.difference(o).empty() && o.difference(this).empty();
  }
}
