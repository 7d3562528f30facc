// The shapes server-side apply walks, read from a kind's schema (spec rule 5): scalars; lists that
// are atomic, sets (entries by value) or maps (entries by key fields); maps and structs that are
// granular or atomic. A node without markers that can hold anything is "deduced": its value
// decides (objects are granular maps, lists are atomic), which is also how a kind without a
// schema is treated.

import type { KindSchema, SchemaNode } from '../../schema/types.ts';
import { isObject, type Json } from '../value.ts';

export type Atom =
  | { readonly kind: 'scalar'; readonly scalar: 'string' | 'numeric' | 'boolean' | 'untyped' }
  | {
      readonly kind: 'list';
      readonly atomic: boolean;
      /** Key fields of a list map; empty for a set. */
      readonly keys: readonly string[];
      readonly element: TypeRef;
    }
  | {
      readonly kind: 'map';
      readonly atomic: boolean;
      /** Declared fields (a struct); empty for a plain map. */
      readonly fields: ReadonlyMap<string, TypeRef>;
      /** Type of keys that are not declared fields; undefined when such keys are an error. */
      readonly element: TypeRef | undefined;
    }
  | { readonly kind: 'deduced' };

/** A reference to a type: resolved lazily, since schemas are recursive (JSONSchemaProps). */
export interface TypeRef {
  atom(): Atom;
}

const DEDUCED_ATOM: Atom = { kind: 'deduced' };
export const DEDUCED: TypeRef = { atom: () => DEDUCED_ATOM };

/** The atom a deduced type takes for a given value. */
const DEDUCED_MAP: Atom = { kind: 'map', atomic: false, fields: new Map(), element: DEDUCED };
const DEDUCED_LIST: Atom = { kind: 'list', atomic: true, keys: [], element: DEDUCED };
const UNTYPED: Atom = { kind: 'scalar', scalar: 'untyped' };

/** The concrete atom for a value: a deduced type follows the value, others are themselves. */
export function atomFor(t: TypeRef, v: Json | undefined): Atom {
  const a = t.atom();
  if (a.kind !== 'deduced') return a;
  if (isObject(v)) return DEDUCED_MAP;
  if (Array.isArray(v)) return DEDUCED_LIST;
  return UNTYPED;
}

/** The atom of a deduced type given two values; the first non-absent one decides. */
export function atomForPair(t: TypeRef, l: Json | undefined, r: Json | undefined): Atom {
  return atomFor(t, r === undefined ? l : r);
}

/** Schema defaults by type, for list-map key fields a list entry leaves out. */
const DEFAULTS = new WeakMap<TypeRef, Json>();

export function defaultOf(t: TypeRef | undefined): Json | undefined {
  return t === undefined ? undefined : DEFAULTS.get(t);
}

/** Resolves a kind's schema nodes to types, once per node. */
export class SchemaTypes {
  private readonly cache = new WeakMap<SchemaNode, TypeRef>();

  constructor(private readonly schema: KindSchema) {}

  root(): TypeRef {
    return this.ref(this.schema.root);
  }

  ref(node: SchemaNode | undefined): TypeRef {
    if (node === undefined) return DEDUCED;
    let r = this.cache.get(node);
    if (r === undefined) {
      let atom: Atom | undefined;
      r = { atom: () => (atom ??= this.build(node)) };
      this.cache.set(node, r);
      if (node.default !== undefined) DEFAULTS.set(r, node.default as Json);
    }
    return r;
  }

  /** A node with its reference resolved; markers on the referring node win over the target's. */
  private resolve(node: SchemaNode): SchemaNode {
    let n = node;
    for (let depth = 0; n.ref !== undefined && depth < 32; depth++) {
      const target = this.schema.definitions[n.ref];
      const { ref: _ref, ...own } = n;
      n = target === undefined ? { preserveUnknownFields: true, ...own } : { ...target, ...own };
    }
    return n;
  }

  private build(raw: SchemaNode): Atom {
    const n = this.resolve(raw);
    if (n.intOrString) return UNTYPED;
    switch (n.type) {
      case 'string':
        return { kind: 'scalar', scalar: 'string' };
      case 'integer':
      case 'number':
        return { kind: 'scalar', scalar: 'numeric' };
      case 'boolean':
        return { kind: 'scalar', scalar: 'boolean' };
      case 'array':
        return this.list(n);
      case 'object':
        return this.map(n);
      default:
        return n.properties !== undefined ? this.map(n) : DEDUCED_ATOM;
    }
  }

  private list(n: SchemaNode): Atom {
    const element = this.ref(n.items);
    const merge = (n.patchStrategy ?? '').split(',').includes('merge');
    if (n.listType === 'map') return { kind: 'list', atomic: false, keys: n.listMapKeys ?? [], element };
    if (n.listType === 'set') return { kind: 'list', atomic: false, keys: [], element };
    if (n.listType === undefined && merge) {
      // Without a list type, a merge patch strategy reads as a list map keyed by the merge key.
      const keys = n.patchMergeKey !== undefined ? [n.patchMergeKey] : [];
      return { kind: 'list', atomic: false, keys, element };
    }
    return { kind: 'list', atomic: true, keys: [], element };
  }

  private map(n: SchemaNode): Atom {
    const fields = new Map<string, TypeRef>();
    for (const [k, v] of Object.entries(n.properties ?? {})) fields.set(k, this.ref(v));
    let element: TypeRef | undefined;
    if (n.additionalProperties !== undefined) element = this.ref(n.additionalProperties);
    else if (n.preserveUnknownFields || n.embeddedResource || n.properties === undefined) element = DEDUCED;
    if (fields.size === 0 && element === DEDUCED && n.mapType === undefined) return DEDUCED_ATOM;
    const atomic =
      (n.properties !== undefined ? n.structType : n.mapType) === 'atomic' || n.mapType === 'atomic';
    return { kind: 'map', atomic, fields, element };
  }
}

/** The type of a map's entry: its declared field, else the map's element type. */
export function fieldType(a: Atom & { kind: 'map' }, key: string): TypeRef | undefined {
  return a.fields.get(key) ?? a.element;
}
