// Upstream's format library (kube-apiserver's "kubernetes.format", on since 1.31): the named
// string formats as values of type kubernetes.NamedFormat, reached as `format.<name>()` or
// `format.named(name)` (optional.none for an unknown name), and `<format>.validate(s)`, which
// answers optional.none for a valid string and otherwise the list of messages. The formats and
// their messages are semantics/format.ts; this file binds them by upstream's names and overload
// ids. Costs: src/cel/cost-table.ts charges upstream's cost.go figures by function name; validate
// costs as a regular expression of the format's maxRegexSize over the string, which it reads
// from the value, so NamedFormat carries that size.

import { Optional } from '../engine.ts';
import type { CelFunction, CelLibrary } from '../environment.ts';
import { type Format, NAMED_FORMATS } from '../semantics/index.ts';
import { T } from '../types.ts';

/** A named format as a CEL value: two are equal when their names are (upstream's rule). */
export class NamedFormat {
  readonly name: string;
  /** Upstream's estimate of the regular expression behind the format, which validate's cost uses. */
  readonly maxRegexSize: number;

  constructor(readonly format: Format) {
    this.name = format.name;
    this.maxRegexSize = format.maxRegexSize;
  }

  equals(other: unknown): boolean {
    return other instanceof NamedFormat && other.name === this.name;
  }

  toString(): string {
    return this.name;
  }
}

/** The CEL type of named formats. */
export const FORMAT_TYPE = T.opaque('kubernetes.NamedFormat');

// One value per format: the formats are constants upstream too.
const VALUES: ReadonlyMap<string, NamedFormat> = new Map(
  [...NAMED_FORMATS].map(([key, f]) => [key, new NamedFormat(f)]),
);

function validate(f: NamedFormat, s: string): Optional {
  const errors = f.format.validate(s);
  return errors.length === 0 ? Optional.none() : Optional.of(errors);
}

const constructors: CelFunction[] = [...VALUES].map(([key, value]) => ({
  name: `format.${key}`,
  overloads: [{ id: `format.${key}`, params: [], result: FORMAT_TYPE, impl: () => value }],
}));

export const formatLibrary: CelLibrary = {
  name: 'kubernetes.format',
  types: [{ name: 'kubernetes.NamedFormat', ctor: NamedFormat }],
  functions: [
    {
      name: 'validate',
      overloads: [
        {
          id: 'format-validate',
          receiver: FORMAT_TYPE,
          params: [T.string],
          result: T.optional(T.list(T.string)),
          impl: validate,
        },
      ],
    },
    {
      name: 'format.named',
      overloads: [
        {
          id: 'format-named',
          params: [T.string],
          result: T.optional(FORMAT_TYPE),
          impl: (name: string) => {
            const f = VALUES.get(name);
            return f === undefined ? Optional.none() : Optional.of(f);
          },
        },
      ],
    },
    ...constructors,
  ],
};
