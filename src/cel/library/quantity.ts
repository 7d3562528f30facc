// Upstream's quantity library (kube-apiserver's "kubernetes.quantity", on since 1.28): quantity()
// and isQuantity() over resource quantities, comparisons, add/sub with quantities or ints, and
// the conversions to int and double. The semantics are machinery's Quantity (upstream's parse
// grammar, representation and messages); this file only binds them by upstream's function names,
// overload ids and the type name kubernetes.Quantity. Costs are upstream's cost.go figures, which
// src/cel/cost-table.ts charges by function name (quantity and isQuantity scan their string,
// everything else costs 1), so no overload carries its own hook.
//
// `sign` is a global function upstream (`sign(q)`, overload quantity_sign declared without a
// receiver), so `q.sign()` does not compile there either.

import { isQuantity, Quantity } from '../../machinery/quantity.ts';
import type { CelLibrary } from '../environment.ts';
import { T } from '../types.ts';

/** The CEL type of quantities, for callers that declare quantity-valued variables or fields. */
export const QUANTITY_TYPE = T.opaque('kubernetes.Quantity');

const Q = QUANTITY_TYPE;

// Selectors and rules mostly parse constants (`quantity("8Gi")`) at every evaluation; quantities
// are immutable, so the parsed values are kept (a bounded map, emptied when full).
const PARSED = new Map<string, Quantity>();
const PARSED_MAX = 4096;

function parse(s: string): Quantity {
  let q = PARSED.get(s);
  if (q === undefined) {
    q = Quantity.parse(s);
    if (PARSED.size >= PARSED_MAX) PARSED.clear();
    PARSED.set(s, q);
  }
  return q;
}

const CEL_INT = [-1n, 0n, 1n] as const;

/** Quantity.cmp with a fast path for the common case of equal exponents (no decimal shifting). */
function compare(a: Quantity, b: Quantity): -1 | 0 | 1 {
  if (a.exponent !== b.exponent) return a.cmp(b);
  return a.mantissa < b.mantissa ? -1 : a.mantissa > b.mantissa ? 1 : 0;
}

// The engine needs a constructor to tell a quantity at run time; Quantity's is private (values come
// from Quantity.parse), which the CelLibrary shape does not accept as written.
const QuantityClass = Quantity as unknown as abstract new (...args: never[]) => Quantity;

export const quantityLibrary: CelLibrary = {
  name: 'kubernetes.quantity',
  types: [{ name: 'kubernetes.Quantity', ctor: QuantityClass }],
  functions: [
    {
      name: 'quantity',
      overloads: [{ id: 'string_to_quantity', params: [T.string], result: Q, impl: parse }],
    },
    {
      name: 'isQuantity',
      overloads: [
        { id: 'is_quantity_string', params: [T.string], result: T.bool, impl: (s: string) => isQuantity(s) },
      ],
    },
    {
      name: 'sign',
      overloads: [
        { id: 'quantity_sign', params: [Q], result: T.int, impl: (q: Quantity) => BigInt(q.sign()) },
      ],
    },
    {
      name: 'isGreaterThan',
      overloads: [
        {
          id: 'quantity_is_greater_than',
          receiver: Q,
          params: [Q],
          result: T.bool,
          impl: (a: Quantity, b: Quantity) => compare(a, b) === 1,
        },
      ],
    },
    {
      name: 'isLessThan',
      overloads: [
        {
          id: 'quantity_is_less_than',
          receiver: Q,
          params: [Q],
          result: T.bool,
          impl: (a: Quantity, b: Quantity) => compare(a, b) === -1,
        },
      ],
    },
    {
      name: 'compareTo',
      overloads: [
        {
          id: 'quantity_compare_to',
          receiver: Q,
          params: [Q],
          result: T.int,
          impl: (a: Quantity, b: Quantity) => CEL_INT[compare(a, b) + 1],
        },
      ],
    },
    {
      name: 'asApproximateFloat',
      overloads: [
        {
          id: 'quantity_get_float',
          receiver: Q,
          params: [],
          result: T.double,
          impl: (q: Quantity) => q.asApproximateFloat(),
        },
      ],
    },
    {
      name: 'asInteger',
      overloads: [
        {
          id: 'quantity_get_int',
          receiver: Q,
          params: [],
          result: T.int,
          impl: (q: Quantity) => q.asInteger(),
        },
      ],
    },
    {
      name: 'isInteger',
      overloads: [
        {
          id: 'quantity_is_integer',
          receiver: Q,
          params: [],
          result: T.bool,
          impl: (q: Quantity) => q.isInteger(),
        },
      ],
    },
    {
      name: 'add',
      overloads: [
        {
          id: 'quantity_add',
          receiver: Q,
          params: [Q],
          result: Q,
          impl: (a: Quantity, b: Quantity) => a.add(b),
        },
        {
          id: 'quantity_add_int',
          receiver: Q,
          params: [T.int],
          result: Q,
          // Upstream turns the int into a quantity in the decimal exponent format first.
          impl: (a: Quantity, n: bigint) => a.add(Quantity.fromInt(n)),
        },
      ],
    },
    {
      name: 'sub',
      overloads: [
        {
          id: 'quantity_sub',
          receiver: Q,
          params: [Q],
          result: Q,
          impl: (a: Quantity, b: Quantity) => a.sub(b),
        },
        {
          id: 'quantity_sub_int',
          receiver: Q,
          params: [T.int],
          result: Q,
          impl: (a: Quantity, n: bigint) => a.sub(Quantity.fromInt(n)),
        },
      ],
    },
  ],
};
