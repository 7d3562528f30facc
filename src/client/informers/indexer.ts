// The informer's cache: client-go's thread-safe store with indexers. Objects by key, plus for each
// index function a map from index value to the keys that produced it, kept current on every add,
// update and delete. The namespace index is always there, so listing one namespace does not scan
// the whole cache. Objects are stored as received and handed out shared: nobody may mutate them.

import type { ApiObject } from '../../machinery/object.ts';
import type { Lister, ObjectKey } from '../api.ts';
import { objectKey } from './keys.ts';

export type IndexFunc<T> = (obj: T) => string[];

/** The name of the built-in index by namespace (client-go's NamespaceIndex). */
export const NAMESPACE_INDEX = 'namespace';

export const namespaceIndexFunc = (obj: ApiObject): string[] => [obj.metadata?.namespace ?? ''];

export class Indexer<T extends ApiObject = ApiObject> implements Lister<T> {
  private readonly items = new Map<ObjectKey, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Map<string, Set<ObjectKey>>>();

  /** Told when an index function throws (the object is then left out of that index). */
  onIndexError: (name: string, key: ObjectKey, err: unknown) => void = () => {};

  constructor(indexers: Record<string, IndexFunc<T>> = {}) {
    this.addIndexers({ [NAMESPACE_INDEX]: namespaceIndexFunc, ...indexers });
  }

  get size(): number {
    return this.items.size;
  }

  get(key: ObjectKey): T | undefined {
    return this.items.get(key);
  }

  /** Every object, or those of one namespace (through the namespace index). */
  list(namespace?: string): T[] {
    if (namespace === undefined) return [...this.items.values()];
    return this.byIndex(NAMESPACE_INDEX, namespace);
  }

  keys(): ObjectKey[] {
    return [...this.items.keys()];
  }

  byIndex(name: string, value: string): T[] {
    const index = this.indices.get(name);
    if (index === undefined) throw new Error(`Index with name ${name} does not exist`);
    const keys = index.get(value);
    if (keys === undefined) return [];
    const out: T[] = [];
    for (const k of keys) {
      const obj = this.items.get(k);
      if (obj !== undefined) out.push(obj);
    }
    return out;
  }

  /** The keys stored under one value of an index. */
  indexKeys(name: string, value: string): ObjectKey[] {
    const index = this.indices.get(name);
    if (index === undefined) throw new Error(`Index with name ${name} does not exist`);
    return [...(index.get(value) ?? [])];
  }

  /** The index values an index currently holds. */
  listIndexValues(name: string): string[] {
    return [...(this.indices.get(name)?.keys() ?? [])];
  }

  /** Adds index functions; existing objects are indexed at once. A name already in use is refused. */
  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    const clash = Object.keys(indexers).filter((n) => this.indexers.has(n));
    if (clash.length > 0) throw new Error(`indexer conflict: ${clash.sort().join(', ')}`);
    for (const [name, fn] of Object.entries(indexers)) {
      this.indexers.set(name, fn);
      this.indices.set(name, new Map());
      for (const [key, obj] of this.items) this.updateIndex(name, fn, undefined, obj, key);
    }
  }

  /** Adds or replaces the object under its key; answers the object it replaced. */
  set(obj: T, key: ObjectKey = objectKey(obj)): T | undefined {
    const old = this.items.get(key);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexers) this.updateIndex(name, fn, old, obj, key);
    return old;
  }

  /** Removes the object under `key`; answers it. */
  delete(key: ObjectKey): T | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    for (const [name, fn] of this.indexers) this.updateIndex(name, fn, old, undefined, key);
    return old;
  }

  private values(name: string, fn: IndexFunc<T>, obj: T | undefined, key: ObjectKey): string[] {
    if (obj === undefined) return [];
    try {
      return fn(obj);
    } catch (err) {
      this.onIndexError(name, key, err);
      return [];
    }
  }

  private updateIndex(
    name: string,
    fn: IndexFunc<T>,
    oldObj: T | undefined,
    newObj: T | undefined,
    key: ObjectKey,
  ) {
    const index = this.indices.get(name);
    if (index === undefined) return;
    const before = this.values(name, fn, oldObj, key);
    const after = this.values(name, fn, newObj, key);
    // The common case (an update that leaves the index value alone) touches nothing.
    if (before.length === 1 && after.length === 1 && before[0] === after[0]) return;
    for (const v of before) {
      const set = index.get(v);
      if (set === undefined) continue;
      set.delete(key);
      if (set.size === 0) index.delete(v);
    }
    for (const v of after) {
      let set = index.get(v);
      if (set === undefined) {
        set = new Set();
        index.set(v, set);
      }
      set.add(key);
    }
  }
}
