// Upstream's semver library (kube-apiserver's "kubernetes.Semver", version 1 since 1.33):
// semver() and isSemver() (each with the normalize flag), major/minor/patch, compareTo,
// isLessThan and isGreaterThan, over the value type kubernetes.Semver, which DRA device
// attributes also carry (a version attribute). The semantics are semantics/semver.ts (blang/semver
// strict parsing, upstream's normalization, precedence); this file binds them by upstream's names
// and overload ids. Costs are upstream's cost.go figures, which src/cel/cost-table.ts charges by
// function name (semver and isSemver scan their string, the rest cost 1).

import type { CelLibrary, CelOverload } from '../environment.ts';
import { isSemver, parseSemver, Semver, semverComponentAsInt } from '../semantics/index.ts';
import { T } from '../types.ts';

/** The CEL type of semantic versions. */
export const SEMVER_TYPE = T.opaque('kubernetes.Semver');

const V = SEMVER_TYPE;

function component(name: 'major' | 'minor' | 'patch') {
  const o: CelOverload = {
    id: `semver_${name}`,
    receiver: V,
    params: [],
    result: T.int,
    impl: (v: Semver) => semverComponentAsInt(v[name]),
  };
  return { name, overloads: [o] };
}

export const semverLibrary: CelLibrary = {
  name: 'kubernetes.Semver',
  types: [{ name: 'kubernetes.Semver', ctor: Semver }],
  functions: [
    {
      name: 'semver',
      overloads: [
        { id: 'string_to_semver', params: [T.string], result: V, impl: (s: string) => parseSemver(s) },
        {
          id: 'string_bool_to_semver',
          params: [T.string, T.bool],
          result: V,
          impl: (s: string, normalize: boolean) => parseSemver(s, normalize),
        },
      ],
    },
    {
      name: 'isSemver',
      overloads: [
        { id: 'is_semver_string', params: [T.string], result: T.bool, impl: (s: string) => isSemver(s) },
        {
          id: 'is_semver_string_bool',
          params: [T.string, T.bool],
          result: T.bool,
          impl: (s: string, normalize: boolean) => isSemver(s, normalize),
        },
      ],
    },
    {
      name: 'isGreaterThan',
      overloads: [
        {
          id: 'semver_is_greater_than',
          receiver: V,
          params: [V],
          result: T.bool,
          impl: (a: Semver, b: Semver) => a.compare(b) === 1,
        },
      ],
    },
    {
      name: 'isLessThan',
      overloads: [
        {
          id: 'semver_is_less_than',
          receiver: V,
          params: [V],
          result: T.bool,
          impl: (a: Semver, b: Semver) => a.compare(b) === -1,
        },
      ],
    },
    {
      name: 'compareTo',
      overloads: [
        {
          id: 'semver_compare_to',
          receiver: V,
          params: [V],
          result: T.int,
          impl: (a: Semver, b: Semver) => BigInt(a.compare(b)),
        },
      ],
    },
    component('major'),
    component('minor'),
    component('patch'),
  ],
};
