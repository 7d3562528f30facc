// cel-go's strings extension (ext.Strings, library `cel.lib.ext.strings`) by its versions:
// 0 charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join;
// 1 format and strings.quote; 2 join over any list of strings; 3 reverse; 4 format as the CEL
// specification words it. kube-apiserver 1.35 enables version 2 (pkg/cel/environment/base.go,
// since 1.29). Indices count code points, as cel-go's runes do; the engine declares some of these
// functions itself with UTF-16 semantics, and declaring them here replaces those.
// Costs need no hooks: upstream prices these functions by name (kube-apiserver's CostEstimator and
// cel-go's defaults: a scan of the receiver, twice for replace and split, the result for join,
// UTF-8 bytes for indexOf, the format string for format), and so does cost-table.ts.

import type { CelFunction, CelImpl, CelLibrary } from '../environment.ts';
import { type CelType, T } from '../types.ts';
import { formatString } from './strings-format.ts';
import {
  charAt,
  indexOf,
  join,
  lastIndexOf,
  lowerAscii,
  quote,
  replace,
  reverse,
  split,
  substring,
  trimSpace,
  upperAscii,
} from './strings-functions.ts';
import { validateFormatCalls } from './strings-validate.ts';

/** The strings library version kube-apiserver 1.35 enables (ext.StringsVersion(2)). */
export const KUBE_STRINGS_VERSION = 2;
/** The newest version cel-go has (its default when no version is given). */
export const LATEST_STRINGS_VERSION = 4;

// --- declarations ------------------------------------------------------------------------------------

const s = T.string;
const i = T.int;

/** A function of string methods, by cel-go's overload ids: `[id, params, result, impl]` each. */
function method(
  name: string,
  receiver: CelType,
  ...overloads: [string, CelType[], CelType, CelImpl][]
): CelFunction {
  return {
    name,
    overloads: overloads.map(([id, params, result, impl]) => ({ id, receiver, params, result, impl })),
  };
}

function declarations(version: number): CelFunction[] {
  const fns: CelFunction[] = [
    method('charAt', s, ['string_char_at_int', [i], s, charAt]),
    method(
      'indexOf',
      s,
      ['string_index_of_string', [s], i, (x: string, y: string) => indexOf(x, y, 0n)],
      ['string_index_of_string_int', [s, i], i, indexOf],
    ),
    method(
      'lastIndexOf',
      s,
      ['string_last_index_of_string', [s], i, (x: string, y: string) => lastIndexOf(x, y, undefined)],
      ['string_last_index_of_string_int', [s, i], i, lastIndexOf],
    ),
    method('lowerAscii', s, ['string_lower_ascii', [], s, lowerAscii]),
    method(
      'replace',
      s,
      ['string_replace_string_string', [s, s], s, (x: string, o: string, n: string) => replace(x, o, n, -1n)],
      ['string_replace_string_string_int', [s, s, i], s, replace],
    ),
    method(
      'split',
      s,
      ['string_split_string', [s], T.list(s), (x: string, sep: string) => split(x, sep, -1n)],
      ['string_split_string_int', [s, i], T.list(s), split],
    ),
    method(
      'substring',
      s,
      ['string_substring_int', [i], s, (x: string, a: bigint) => substring(x, a)],
      ['string_substring_int_int', [i, i], s, substring],
    ),
    method('trim', s, ['string_trim', [], s, trimSpace]),
    method('upperAscii', s, ['string_upper_ascii', [], s, upperAscii]),
    // Version 2 joins any list of strings; before, the same overloads converted the list first.
    method(
      'join',
      T.list(s),
      ['list_join', [], s, (l: unknown[]) => join(l, '')],
      ['list_join_string', [s], s, join],
    ),
  ];
  if (version >= 1) {
    fns.push(
      method('format', s, [
        'string_format',
        [T.list(T.dyn)],
        s,
        (f: string, args: unknown[]) => formatString(version, f, args),
      ]),
      { name: 'strings.quote', overloads: [{ id: 'strings_quote', params: [s], result: s, impl: quote }] },
    );
  }
  if (version >= 3) fns.push(method('reverse', s, ['string_reverse', [], s, reverse]));
  return fns;
}

const byVersion = new Map<number, CelLibrary>();

/**
 * The strings extension at a version (default: the newest, as cel-go's default). One library
 * object per version, so environments that list the same version share it.
 */
export function stringsLibrary(version = LATEST_STRINGS_VERSION): CelLibrary {
  let lib = byVersion.get(version);
  if (lib === undefined) {
    // From version 1 a literal format string is checked against its literal arguments when compiled.
    const language =
      version >= 1
        ? { validate: (ast: unknown, src: string) => validateFormatCalls(ast, src, version) }
        : undefined;
    lib = Object.freeze({ name: 'cel.lib.ext.strings', version, functions: declarations(version), language });
    byVersion.set(version, lib);
  }
  return lib;
}
