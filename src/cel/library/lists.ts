// Upstream's `lists` library (kube-apiserver's CEL library of the same name): isSorted, sum, min,
// max, indexOf, lastIndexOf over lists of comparable values. Also the worked example of a
// CelLibrary: overloads per element type as upstream declares them. Costs need no hooks here:
// upstream prices these functions by name (a traversal of the list), and so does cost-table.ts.

import { Duration, UnsignedInt } from '../engine.ts';
import type { CelLibrary, CelOverload } from '../environment.ts';
import { type CelType, T } from '../types.ts';

/** Upstream's comparable element types. */
const COMPARABLE: readonly [string, CelType][] = [
  ['int', T.int],
  ['uint', T.uint],
  ['double', T.double],
  ['bool', T.bool],
  ['string', T.string],
  ['bytes', T.bytes],
  ['duration', T.duration],
  ['timestamp', T.timestamp],
];
const SUMMABLE: readonly [string, CelType][] = [
  ['int', T.int],
  ['uint', T.uint],
  ['double', T.double],
  ['duration', T.duration],
];

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** Orders two values of one comparable type: negative, zero or positive. */
export function compareValues(a: unknown, b: unknown): number {
  if (a instanceof UnsignedInt && b instanceof UnsignedInt) return cmp(a.value, b.value);
  if (a instanceof Date && b instanceof Date) return cmp(a.getTime(), b.getTime());
  if (a instanceof Duration && b instanceof Duration)
    return cmp(a.seconds, b.seconds) || cmp(a.nanos, b.nanos);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  }
  return cmp(a as number, b as number);
}

function cmp<V extends number | bigint | string | boolean>(a: V, b: V): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function equalValues(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null) return a === b;
  return compareValues(a, b) === 0;
}

function sum(kind: string, list: readonly unknown[]): unknown {
  switch (kind) {
    case 'int': {
      let total = 0n;
      for (const v of list as bigint[]) {
        total += v;
        if (total > INT64_MAX || total < INT64_MIN) throw new Error('return error for overflow');
      }
      return total;
    }
    case 'uint': {
      let total = 0n;
      for (const v of list as UnsignedInt[]) total += v.value;
      if (total >= 2n ** 64n) throw new Error('return error for overflow');
      return new UnsignedInt(total);
    }
    case 'double':
      return (list as number[]).reduce((x, y) => x + y, 0);
    default: {
      let total = new Duration(0n, 0);
      for (const v of list as Duration[]) total = total.addDuration(v);
      return total;
    }
  }
}

function extreme(name: 'min' | 'max', list: readonly unknown[]): unknown {
  if (list.length === 0) throw new Error(`${name} called on empty list`);
  let best = list[0];
  for (const v of list) if ((name === 'min' ? compareValues(v, best) : compareValues(best, v)) < 0) best = v;
  return best;
}

function overloads(
  name: string,
  types: readonly [string, CelType][],
  make: (kind: string, t: CelType) => Omit<CelOverload, 'id'>,
): CelOverload[] {
  return types.map(([kind, t]) => ({ id: `list_${name}_${kind}`, ...make(kind, t) }));
}

export const listsLibrary: CelLibrary = {
  name: 'lists',
  functions: [
    {
      name: 'isSorted',
      overloads: overloads('isSorted', COMPARABLE, (_k, t) => ({
        receiver: T.list(t),
        params: [],
        result: T.bool,
        impl: (list: readonly unknown[]) =>
          list.every((v, i) => i === 0 || compareValues(list[i - 1], v) <= 0),
      })),
    },
    {
      name: 'sum',
      overloads: overloads('sum', SUMMABLE, (kind, t) => ({
        receiver: T.list(t),
        params: [],
        result: t,
        impl: (list: readonly unknown[]) => sum(kind, list),
      })),
    },
    ...(['min', 'max'] as const).map((name) => ({
      name,
      overloads: overloads(name, COMPARABLE, (_k, t) => ({
        receiver: T.list(t),
        params: [t],
        result: t,
        impl: (list: readonly unknown[]) => extreme(name, list),
      })).map((o) => ({ ...o, params: [] })),
    })),
    ...(['indexOf', 'lastIndexOf'] as const).map((name) => ({
      name,
      overloads: overloads(name, COMPARABLE, (_k, t) => ({
        receiver: T.list(t),
        params: [t],
        result: T.int,
        impl: (list: readonly unknown[], x: unknown) => {
          if (name === 'indexOf') return BigInt(list.findIndex((v) => equalValues(v, x)));
          return BigInt(list.findLastIndex((v) => equalValues(v, x)));
        },
      })),
    })),
  ],
};
