// cel-go's sets extension (ext.Sets, library `cel.lib.ext.sets`), enabled by kube-apiserver since
// 1.29: sets.contains, sets.equivalent and sets.intersects over lists treated as sets, with CEL
// equality (so 1, 1u and 1.0 are one element, and lists and maps compare by value). Costs are
// cel-go's trackers by name (cost-table.ts): 1 plus the product of the sizes, twice for equivalent.

import type { CelLibrary, CelOverload } from '../environment.ts';
import { listContains } from '../fixes/values.ts';
import { T } from '../types.ts';

/** Whether every element of `sub` is in `list` (true when `sub` is empty). */
export function setsContains(list: readonly unknown[], sub: readonly unknown[]): boolean {
  for (const x of sub) if (!listContains(list, x)) return false;
  return true;
}

/** Whether each list contains the other; sizes and repetitions do not matter. */
export function setsEquivalent(a: readonly unknown[], b: readonly unknown[]): boolean {
  return setsContains(a, b) && setsContains(b, a);
}

/** Whether some element of `a` is in `b` (false when either is empty). */
export function setsIntersects(a: readonly unknown[], b: readonly unknown[]): boolean {
  for (const x of a) if (listContains(b, x)) return true;
  return false;
}

/**
 * cel-go declares list(T) for both; the engine re-checks a call with dyn arguments against the
 * values' run-time types, taken from their first elements, so `sets.contains(x, [1])` with x
 * holding doubles would find no overload. Two type parameters keep those calls working, at the
 * price of accepting `sets.contains([1], ['a'])` (false here, a type error upstream).
 */
const listOfA = T.list(T.param('A'));
const listOfB = T.list(T.param('B'));

function overload(id: string, impl: (a: unknown[], b: unknown[]) => boolean): CelOverload {
  return { id, params: [listOfA, listOfB], result: T.bool, impl };
}

export const setsLibrary: CelLibrary = {
  name: 'cel.lib.ext.sets',
  functions: [
    { name: 'sets.contains', overloads: [overload('list_sets_contains_list', setsContains)] },
    { name: 'sets.equivalent', overloads: [overload('list_sets_equivalent_list', setsEquivalent)] },
    { name: 'sets.intersects', overloads: [overload('list_sets_intersects_list', setsIntersects)] },
  ],
};
