// A stand-in for the quantity library (written separately in src/cel/library/) so the bench
// measures a device selector today: quantity() parses a number with a binary or decimal suffix and
// compareTo orders two. Registered through CelLibrary like any real library.

import { type CelLibrary, T } from '../../src/cel/index.ts';

const SUFFIX: Record<string, number> = {
  '': 1,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  k: 1e3,
  M: 1e6,
  G: 1e9,
};

export class StubQuantity {
  constructor(readonly value: number) {}
}

export function stubQuantity(text: string): StubQuantity {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|)$/.exec(text);
  if (m === null)
    throw new Error(
      `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
  return new StubQuantity(Number(m[1]) * SUFFIX[m[2]]);
}

const Q = T.opaque('Quantity');

export const quantityStub: CelLibrary = {
  name: 'bench.quantity',
  types: [{ name: 'Quantity', ctor: StubQuantity }],
  functions: [
    {
      name: 'quantity',
      overloads: [{ id: 'string_to_quantity', params: [T.string], result: Q, impl: stubQuantity }],
    },
    {
      name: 'compareTo',
      overloads: [
        {
          id: 'quantity_compareTo_quantity',
          receiver: Q,
          params: [Q],
          result: T.int,
          impl: (a: StubQuantity, b: StubQuantity) => (a.value < b.value ? -1n : a.value > b.value ? 1n : 0n),
        },
      ],
    },
  ],
};
