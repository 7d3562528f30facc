// cel-go's strings extension (ext.Strings, library `cel.lib.ext.strings`) by its versions:
// 0 charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join;
// 1 format and strings.quote; 2 join over any list of strings; 3 reverse; 4 format as the CEL
// specification words it. kube-apiserver 1.35 enables version 2 (pkg/cel/environment/base.go,
// since 1.29). Indices count code points, as cel-go's runes do; the engine declares some of these
// functions itself with UTF-16 semantics, and declaring them here replaces those.
// Costs are upstream's (kube-apiserver's CostEstimator and cel-go's defaults): a scan of the
// receiver for lowerAscii, upperAscii, substring and trim, twice that for replace and split, the
// result for join, UTF-8 bytes for indexOf and lastIndexOf, the format string for format.

import type { CelLibrary, CelOverload, SizeRange } from '../environment.ts';
import { T } from '../types.ts';
import { runeCount, traversal, traversalEstimate, utf8Length } from './strings-cost.ts';
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

/** The strings library version kube-apiserver 1.35 enables (ext.StringsVersion(2)). */
export const KUBE_STRINGS_VERSION = 2;
/** The newest version cel-go has (its default when no version is given). */
export const LATEST_STRINGS_VERSION = 4;

// --- declarations ------------------------------------------------------------------------------------

const receiverScan = (args: readonly unknown[]) => traversal(runeCount(args[0] as string));
const receiverScanTwice = (args: readonly unknown[]) => traversal(runeCount(args[0] as string), 0.2);
/** indexOf and lastIndexOf: upstream's traversalCost, whole tenths of the UTF-8 length. */
const byteScan = (args: readonly unknown[]) => Math.floor(utf8Length(args[0] as string) * 0.1);
const sizeOfReceiver = (sizes: readonly SizeRange[]) => sizes[0];

function scanning(
  o: Omit<CelOverload, 'cost' | 'estimateCost' | 'estimateResultSize'>,
  factor = 0.1,
): CelOverload {
  return {
    ...o,
    cost: factor === 0.1 ? receiverScan : receiverScanTwice,
    estimateCost: (sizes) => traversalEstimate(sizes[0], factor),
  };
}

function joinCost(args: readonly unknown[]): number {
  const list = args[0] as readonly unknown[];
  const sep = (args[1] as string | undefined) ?? '';
  let size = list.length > 0 ? runeCount(sep) * (list.length - 1) : 0;
  for (const v of list) if (typeof v === 'string') size += runeCount(v);
  return traversal(size, 0.2);
}

const s = T.string;
const i = T.int;

function declarations(version: number): CelLibrary['functions'] {
  const fns: CelLibrary['functions'][number][] = [
    {
      name: 'charAt',
      overloads: [{ id: 'string_char_at_int', receiver: s, params: [i], result: s, impl: charAt }],
    },
    {
      name: 'indexOf',
      overloads: [
        {
          id: 'string_index_of_string',
          receiver: s,
          params: [s],
          result: i,
          impl: (x: string, y: string) => indexOf(x, y, 0n),
          cost: byteScan,
          estimateCost: (z) => traversalEstimate(z[0]),
        },
        {
          id: 'string_index_of_string_int',
          receiver: s,
          params: [s, i],
          result: i,
          impl: indexOf,
          cost: byteScan,
          estimateCost: (z) => traversalEstimate(z[0]),
        },
      ],
    },
    {
      name: 'lastIndexOf',
      overloads: [
        {
          id: 'string_last_index_of_string',
          receiver: s,
          params: [s],
          result: i,
          impl: (x: string, y: string) => lastIndexOf(x, y, undefined),
          cost: byteScan,
          estimateCost: (z) => traversalEstimate(z[0]),
        },
        {
          id: 'string_last_index_of_string_int',
          receiver: s,
          params: [s, i],
          result: i,
          impl: lastIndexOf,
          cost: byteScan,
          estimateCost: (z) => traversalEstimate(z[0]),
        },
      ],
    },
    {
      name: 'lowerAscii',
      overloads: [
        {
          ...scanning({
            id: 'string_lower_ascii',
            receiver: s,
            params: [],
            result: s,
            impl: lowerAscii,
          }),
          estimateResultSize: sizeOfReceiver,
        },
      ],
    },
    {
      name: 'upperAscii',
      overloads: [
        {
          ...scanning({
            id: 'string_upper_ascii',
            receiver: s,
            params: [],
            result: s,
            impl: upperAscii,
          }),
          estimateResultSize: sizeOfReceiver,
        },
      ],
    },
    {
      name: 'replace',
      overloads: [
        scanning(
          {
            id: 'string_replace_string_string',
            receiver: s,
            params: [s, s],
            result: s,
            impl: (x: string, o: string, n: string) => replace(x, o, n, -1n),
          },
          0.2,
        ),
        scanning(
          {
            id: 'string_replace_string_string_int',
            receiver: s,
            params: [s, s, i],
            result: s,
            impl: replace,
          },
          0.2,
        ),
      ],
    },
    {
      name: 'split',
      overloads: [
        {
          ...scanning(
            {
              id: 'string_split_string',
              receiver: s,
              params: [s],
              result: T.list(s),
              impl: (x: string, sep: string) => split(x, sep, -1n),
            },
            0.2,
          ),
          estimateResultSize: (z) => ({ min: 0, max: z[0].max }),
        },
        {
          ...scanning(
            { id: 'string_split_string_int', receiver: s, params: [s, i], result: T.list(s), impl: split },
            0.2,
          ),
          estimateResultSize: (z) => ({ min: 0, max: z[0].max }),
        },
      ],
    },
    {
      name: 'substring',
      overloads: [
        {
          ...scanning({
            id: 'string_substring_int',
            receiver: s,
            params: [i],
            result: s,
            impl: (x: string, a: bigint) => substring(x, a),
          }),
          estimateResultSize: sizeOfReceiver,
        },
        {
          ...scanning({
            id: 'string_substring_int_int',
            receiver: s,
            params: [i, i],
            result: s,
            impl: substring,
          }),
          estimateResultSize: sizeOfReceiver,
        },
      ],
    },
    {
      name: 'trim',
      overloads: [
        {
          ...scanning({
            id: 'string_trim',
            receiver: s,
            params: [],
            result: s,
            impl: trimSpace,
          }),
          estimateResultSize: sizeOfReceiver,
        },
      ],
    },
    {
      name: 'join',
      overloads: [
        {
          id: 'list_join',
          receiver: T.list(s),
          params: [],
          result: s,
          impl: (l: unknown[]) => join(l, ''),
          cost: joinCost,
        },
        { id: 'list_join_string', receiver: T.list(s), params: [s], result: s, impl: join, cost: joinCost },
      ],
    },
  ];
  if (version >= 1) {
    fns.push(
      {
        name: 'format',
        overloads: [
          scanning({
            id: 'string_format',
            receiver: s,
            params: [T.list(T.dyn)],
            result: s,
            impl: (f: string, args: unknown[]) => formatString(version, f, args),
          }),
        ],
      },
      {
        name: 'strings.quote',
        overloads: [scanning({ id: 'strings_quote', params: [s], result: s, impl: quote })],
      },
    );
  }
  if (version >= 3) {
    fns.push({
      name: 'reverse',
      overloads: [
        {
          id: 'string_reverse',
          receiver: s,
          params: [],
          result: s,
          impl: reverse,
          estimateResultSize: sizeOfReceiver,
        },
      ],
    });
  }
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
    lib = Object.freeze({ name: 'cel.lib.ext.strings', version, functions: declarations(version) });
    byVersion.set(version, lib);
  }
  return lib;
}
