// Strategic merge patch: a merge patch that knows, from the kind's schema, which lists merge and by
// what key (containers by name, ports by containerPort) instead of being replaced whole. Directives
// in the patch refine it: `$patch: replace|merge|delete` on maps and list elements, `$retainKeys`,
// `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>`. Fields the schema does not
// describe merge as in a JSON merge patch.

import type { KindSchema, SchemaNode } from '../schema/types.ts';
import { PatchError } from './errors.ts';
import { isPlainObject } from './merge-patch.ts';

type Obj = Record<string, unknown>;

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM = '$deleteFromPrimitiveList/';
const SET_ORDER = '$setElementOrder/';
/** A map or element the patch deletes. */
const DELETED = Symbol('deleted');

/** Resolves references (`ref`) so that a node's own markers and its definition's fields combine. */
class SchemaView {
  /** Resolved nodes: a patch looks up the same few nodes once per key of every element. */
  private readonly resolved = new WeakMap<SchemaNode, SchemaNode | undefined>();

  constructor(readonly schema: KindSchema) {}

  resolve(node: SchemaNode | undefined): SchemaNode | undefined {
    if (node === undefined || node.ref === undefined) return node;
    if (this.resolved.has(node)) return this.resolved.get(node);
    const n = this.resolveUncached(node);
    this.resolved.set(node, n);
    return n;
  }

  private resolveUncached(node: SchemaNode): SchemaNode | undefined {
    let n: SchemaNode | undefined = node;
    for (let depth = 0; n?.ref !== undefined && depth < 32; depth++) {
      const target: SchemaNode | undefined = this.schema.definitions[n.ref];
      // The referring node's list markers win: they are declared on the field, not the type.
      const { ref: _ref, ...own } = n;
      n = target === undefined ? undefined : { ...target, ...own };
    }
    return n;
  }

  field(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
    const n = this.resolve(node);
    return n?.properties?.[key] ?? n?.additionalProperties;
  }

  items(node: SchemaNode | undefined): SchemaNode | undefined {
    return this.resolve(this.resolve(node)?.items);
  }
}

/** Go's %v of a map, as upstream's messages print the offending element. */
function goMap(v: unknown): string {
  if (isPlainObject(v)) {
    const parts = Object.keys(v)
      .sort()
      .map((k) => `${k}:${goMap(v[k])}`);
    return `map[${parts.join(' ')}]`;
  }
  if (Array.isArray(v)) return `[${v.map(goMap).join(' ')}]`;
  return String(v);
}

/** Marks a removed element of a KeyIndex's list until the list is read. */
const REMOVED = Symbol('removed');

/**
 * A merge list's elements by merge key, so that finding an element's match costs no scan: the
 * first element whose key is `===` the patch element's, as a scan from the start finds it.
 * Removed elements are marked, not spliced, so that positions stay valid.
 */
class KeyIndex {
  /** Positions of the elements with each key, ascending; `head` skips those removed. */
  private readonly positions = new Map<unknown, { at: number[]; head: number }>();

  constructor(
    private readonly items: unknown[],
    private readonly mergeKey: string,
  ) {
    for (let i = 0; i < items.length; i++) this.note(items[i], i);
  }

  private note(v: unknown, i: number): void {
    if (!isPlainObject(v)) return;
    const key = v[this.mergeKey];
    if (key === undefined) return;
    const p = this.positions.get(key);
    if (p === undefined) this.positions.set(key, { at: [i], head: 0 });
    else p.at.push(i);
  }

  /** The position of the first element with `key`, or -1. */
  first(key: unknown): number {
    const p = this.positions.get(key);
    return p === undefined || p.head === p.at.length ? -1 : p.at[p.head];
  }

  /** Removes the element at `at`, which `first` answered. */
  remove(at: number): void {
    const key = (this.items[at] as Obj)[this.mergeKey];
    const p = this.positions.get(key);
    if (p !== undefined) p.head++;
    this.items[at] = REMOVED;
  }

  push(v: unknown): void {
    this.items.push(v);
    this.note(v, this.items.length - 1);
  }

  /** Puts `v` at `at` (which `first` answered); it is found by its own key from now on. */
  replace(at: number, v: unknown): void {
    const key = (this.items[at] as Obj)[this.mergeKey];
    if (isPlainObject(v) && v[this.mergeKey] === key) {
      this.items[at] = v;
      return;
    }
    // The merged element lost its key (`$retainKeys` can drop it): it is no longer a match.
    const p = this.positions.get(key);
    if (p !== undefined) p.head++;
    this.items[at] = v;
    const other = isPlainObject(v) ? v[this.mergeKey] : undefined;
    if (other !== undefined) {
      // Found later by its new key only if no element before it has that key: keep positions sorted.
      const q = this.positions.get(other);
      if (q === undefined) this.positions.set(other, { at: [at], head: 0 });
      else {
        const live = q.at.slice(q.head);
        live.push(at);
        live.sort((a, b) => a - b);
        this.positions.set(other, { at: live, head: 0 });
      }
    }
  }

  /** The elements, without those removed. */
  list(): unknown[] {
    return this.items.filter((v) => v !== REMOVED);
  }
}

export class StrategicMerge {
  private readonly view: SchemaView;

  constructor(schema: KindSchema) {
    this.view = new SchemaView(schema);
  }

  /** The object after the patch; PatchError for a patch that is malformed or does not fit. */
  apply(original: Obj, patch: unknown): Obj {
    if (!isPlainObject(patch))
      throw new PatchError('a strategic merge patch must be a JSON object', 'malformed');
    const out = this.mergeMap(structuredClone(original), patch, this.view.schema.root);
    return out === DELETED ? {} : out;
  }

  private mergeMap(
    original: Obj | undefined,
    patch: Obj,
    node: SchemaNode | undefined,
  ): Obj | typeof DELETED {
    const directive = patch[PATCH];
    if (directive === 'delete') return DELETED;
    if (directive === 'replace') {
      const { [PATCH]: _directive, ...rest } = patch;
      return this.mergeMap(undefined, rest, node);
    }
    if (directive !== undefined && directive !== 'merge') {
      throw new PatchError(`unknown patch type: ${String(directive)} in map: ${goMap(patch)}`, 'malformed');
    }
    const out: Obj = { ...(original ?? {}) };
    const orders = new Map<string, unknown[]>();
    for (const [key, value] of Object.entries(patch)) {
      if (key === PATCH || key === RETAIN_KEYS) continue;
      if (key.startsWith(DELETE_FROM)) {
        const field = key.slice(DELETE_FROM.length);
        if (!Array.isArray(value)) throw new PatchError(`${key} must be a list`, 'malformed');
        const current = out[field];
        const gone = new Set(value);
        if (Array.isArray(current)) out[field] = current.filter((v) => !gone.has(v));
        continue;
      }
      if (key.startsWith(SET_ORDER)) {
        if (!Array.isArray(value)) throw new PatchError(`${key} must be a list`, 'malformed');
        orders.set(key.slice(SET_ORDER.length), value);
        continue;
      }
      const child = this.view.field(node, key);
      if (value === null) {
        delete out[key];
      } else if (isPlainObject(value)) {
        const merged = this.mergeMap(isPlainObject(out[key]) ? (out[key] as Obj) : undefined, value, child);
        if (merged === DELETED) delete out[key];
        else out[key] = merged;
      } else if (Array.isArray(value)) {
        out[key] = this.mergeList(
          Array.isArray(out[key]) ? (out[key] as unknown[]) : undefined,
          value,
          child,
        );
      } else {
        out[key] = value;
      }
    }
    for (const [field, order] of orders) {
      const list = out[field];
      if (Array.isArray(list)) out[field] = this.ordered(list, order, this.view.field(node, field));
    }
    const retain = patch[RETAIN_KEYS];
    if (retain !== undefined) {
      if (!Array.isArray(retain)) throw new PatchError(`${RETAIN_KEYS} must be a list`, 'malformed');
      const kept = new Set(retain);
      for (const k of Object.keys(out)) if (!kept.has(k)) delete out[k];
    }
    return out;
  }

  private mergeList(
    original: unknown[] | undefined,
    patch: unknown[],
    node: SchemaNode | undefined,
  ): unknown[] {
    const n = this.view.resolve(node);
    const strategies = (n?.patchStrategy ?? '').split(',');
    const items = this.view.items(n);
    const mergeKey = n?.patchMergeKey;
    if (!strategies.includes('merge')) return patch.map((v) => this.fresh(v, items));
    if (mergeKey === undefined) {
      // A merge list of scalars: a union, the original order kept, new values appended.
      const out = [...(original ?? [])];
      // A set beside the list: `includes` per value made a long list quadratic.
      const present = new Set(out);
      for (const v of patch) {
        if (isPlainObject(v) && v[PATCH] === 'replace') return patch.filter((x) => x !== v);
        if (!present.has(v)) {
          present.add(v);
          out.push(v);
        }
      }
      return out;
    }
    if (patch.some((v) => isPlainObject(v) && v[PATCH] === 'replace')) {
      return patch
        .filter((v) => !(isPlainObject(v) && v[PATCH] === 'replace'))
        .map((v) => this.fresh(v, items));
    }
    const out: unknown[] = [...(original ?? [])];
    const byKey = new KeyIndex(out, mergeKey);
    for (const element of patch) {
      if (!isPlainObject(element)) {
        throw new PatchError(
          `map: ${goMap(element)} does not contain declared merge key: ${mergeKey}`,
          'conflict',
        );
      }
      const key = element[mergeKey];
      if (key === undefined) {
        throw new PatchError(
          `map: ${goMap(element)} does not contain declared merge key: ${mergeKey}`,
          'conflict',
        );
      }
      const at = byKey.first(key);
      if (element[PATCH] === 'delete') {
        if (at !== -1) byKey.remove(at);
        continue;
      }
      const merged = this.mergeMap(at === -1 ? undefined : (out[at] as Obj), element, items);
      if (merged === DELETED) {
        if (at !== -1) byKey.remove(at);
      } else if (at === -1) byKey.push(merged);
      else byKey.replace(at, merged);
    }
    return byKey.list();
  }

  /** A value the patch adds where nothing was: its directives are instructions, not data. */
  private fresh(v: unknown, node: SchemaNode | undefined): unknown {
    if (isPlainObject(v)) {
      const merged = this.mergeMap(undefined, v, node);
      return merged === DELETED ? {} : merged;
    }
    if (Array.isArray(v)) return this.mergeList(undefined, v, node);
    return v;
  }

  /** `$setElementOrder`: the listed elements first, in that order, then the rest as they were. */
  private ordered(list: unknown[], order: unknown[], node: SchemaNode | undefined): unknown[] {
    const mergeKey = this.view.resolve(node)?.patchMergeKey;
    const keyOf = (v: unknown) => (mergeKey !== undefined && isPlainObject(v) ? v[mergeKey] : v);
    // Each value's first place in the order, looked up once per element rather than per comparison.
    const places = new Map<unknown, number>();
    order.forEach((o, i) => {
      const k = mergeKey !== undefined && isPlainObject(o) ? o[mergeKey] : o;
      if (!places.has(k)) places.set(k, i);
    });
    return list
      .map((v, i) => ({ v, i, rank: places.get(keyOf(v)) ?? order.length }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.v);
  }
}

/** Applies a strategic merge patch to `original` with the merge rules of `schema`. */
export function strategicMergePatch(original: Obj, patch: unknown, schema: KindSchema): Obj {
  return new StrategicMerge(schema).apply(original, patch);
}
