// cel-go's list extension (ext.Lists, "cel.lib.ext.lists") at the version kube-apiserver 1.35's
// base environment enables (ext.ListsVersion(3), introduced at 1.34): slice, flatten (with a
// depth), lists.range, distinct, reverse, sort and the sortBy macro (lists-ext-sortby.ts). Version
// 3 only adds cost support, which cost-table.ts gives by function name as for the other libraries.
// (first() and last() are the optional library's, version 2: optionals.ts.) Errors carry
// cel-go's messages; the overload ids are cel-go's.

import { Duration, engineType, UnsignedInt } from '../engine.ts';
import type { CelLibrary, CelOverload } from '../environment.ts';
import { celCompare, celEquals } from '../fixes/index.ts';
import { type CelType, T } from '../types.ts';
import { sortByMacro } from './lists-ext-sortby.ts';

/** cel-go's comparable types, by the type name its overload ids use. */
const COMPARABLE: readonly [string, CelType][] = [
  ['int', T.int],
  ['uint', T.uint],
  ['double', T.double],
  ['bool', T.bool],
  ['google.protobuf.Duration', T.duration],
  ['google.protobuf.Timestamp', T.timestamp],
  ['string', T.string],
  ['bytes', T.bytes],
];

const LIST_T = T.list(T.param('T'));
const LIST_DYN = T.list(T.dyn);

function slice(list: readonly unknown[], start: bigint, end: bigint): unknown[] {
  if (start < 0n || end < 0n)
    throw new Error(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end)
    throw new Error(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (BigInt(list.length) < end)
    throw new Error(`cannot slice(${start}, ${end}), list is length ${list.length}`);
  return list.slice(Number(start), Number(end));
}

function flatten(list: readonly unknown[], depth: bigint): unknown[] {
  if (depth < 0n) throw new Error('level must be non-negative');
  const out: unknown[] = [];
  const walk = (l: readonly unknown[], d: bigint): void => {
    for (const v of l) {
      if (Array.isArray(v) && d > 0n) walk(v, d - 1n);
      else out.push(v);
    }
  };
  walk(list, depth);
  return out;
}

function range(n: bigint): bigint[] {
  const out: bigint[] = [];
  for (let i = 0n; i < n; i++) out.push(i);
  return out;
}

function distinct(list: readonly unknown[]): readonly unknown[] {
  if (list.length === 0) return list;
  const out: unknown[] = [];
  for (const v of list) if (!out.some((o) => celEquals(v, o))) out.push(v);
  return out;
}

/**
 * `list` ordered by `keys` (the same length): cel-go's @sortByAssociatedKeys, which sort() and
 * the sortBy macro share. Every key must be comparable and of the first key's type.
 */
export function sortByKeys(list: readonly unknown[], keys: readonly unknown[]): readonly unknown[] {
  if (list.length !== keys.length) {
    throw new Error(
      `@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${list.length} and ${keys.length} elements respectively`,
    );
  }
  if (list.length === 0) return list;
  const kind = comparableKind(keys[0]);
  if (kind === undefined) throw new Error('list elements must be comparable');
  if (keys.some((k) => comparableKind(k) !== kind)) throw new Error('list elements must have the same type');
  // Array.prototype.sort is stable: equal keys keep their order, as Go's sort does for short lists.
  const order = keys.map((_, i) => i).sort((i, j) => celCompare(keys[i], keys[j]) ?? 0);
  return order.map((i) => list[i]);
}

/** The comparable type of a value (cel-go's traits.Comparer), or undefined. */
function comparableKind(v: unknown): string | undefined {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
  }
  if (v instanceof UnsignedInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'timestamp';
  if (v instanceof Duration) return 'duration';
  return undefined;
}

function comparableOverloads(
  name: string,
  make: (typeName: string, t: CelType) => Omit<CelOverload, 'id'>,
): CelOverload[] {
  return COMPARABLE.map(([typeName, t]) => ({ id: `list_${typeName}_${name}`, ...make(typeName, t) }));
}

export const listsExtLibrary: CelLibrary = {
  name: 'cel.lib.ext.lists',
  functions: [
    {
      name: 'slice',
      overloads: [
        {
          id: 'list_slice',
          receiver: LIST_T,
          params: [T.int, T.int],
          result: LIST_T,
          impl: slice,
        },
      ],
    },
    {
      name: 'flatten',
      overloads: [
        {
          id: 'list_flatten',
          receiver: T.list(LIST_T),
          params: [],
          result: LIST_T,
          impl: (list: readonly unknown[]) => flatten(list, 1n),
        },
        {
          id: 'list_flatten_int',
          receiver: LIST_DYN,
          params: [T.int],
          result: LIST_DYN,
          impl: flatten,
        },
      ],
    },
    {
      name: 'sort',
      overloads: comparableOverloads('sort', (_n, t) => ({
        receiver: T.list(t),
        params: [],
        result: T.list(t),
        impl: (list: readonly unknown[]) => sortByKeys(list, list),
      })),
    },
    {
      name: 'lists.range',
      overloads: [{ id: 'lists_range', params: [T.int], result: T.list(T.int), impl: range }],
    },
    {
      name: 'reverse',
      overloads: [
        {
          id: 'list_reverse',
          receiver: LIST_T,
          params: [],
          result: LIST_T,
          impl: (list: readonly unknown[]) => [...list].reverse(),
        },
      ],
    },
    {
      name: 'distinct',
      overloads: [{ id: 'list_distinct', receiver: LIST_T, params: [], result: LIST_T, impl: distinct }],
    },
  ],
  language: {
    install: (engine) =>
      sortByMacro(
        engine,
        COMPARABLE.map(([n, t]) => [n, engineType(t)]),
        sortByKeys,
      ),
  },
};
