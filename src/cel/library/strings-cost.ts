// The cost arithmetic the strings and regex libraries share, with upstream's constants (cel-go
// common/cost.go, kube-apiserver pkg/cel/library/cost.go): a string traversal costs 0.1 per
// character, a regular expression 0.25 per character of the pattern times the traversal of the
// input. Sizes are in code points, as cel-go's String.Size() counts them (except indexOf and
// lastIndexOf, which upstream charges by UTF-8 bytes). The libraries' `cost` hooks return
// upstream's cost of the whole call, which replaces the 1 a call costs otherwise (cel-go's
// ActualCostEstimator and overload trackers work that way).

import type { CostRange, SizeRange } from '../environment.ts';

export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

/** The number of code points of a string (what `size()` answers). */
export function runeCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A surrogate pair is one code point in two UTF-16 units.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The number of UTF-8 bytes of a string. */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** `ceil(size × factor)`: upstream's charge for one pass over `size` characters. */
export function traversal(size: number, factor = STRING_TRAVERSAL_COST_FACTOR): number {
  return Math.ceil(size * factor);
}

/** A size range scaled by a cost factor, each bound rounded up (checker.SizeEstimate's way). */
export function traversalEstimate(size: SizeRange, factor = STRING_TRAVERSAL_COST_FACTOR): CostRange {
  return { min: Math.ceil(size.min * factor), max: saturate(Math.ceil(size.max * factor)) };
}

/**
 * A regular expression over a string: `ceil((1 + length(input)) × 0.1) × ceil(length(regex) × 0.25)`
 * (the one is there so that an empty input still pays for an expensive pattern).
 */
export function regexCost(inputSize: number, regexSize: number): number {
  return (
    Math.ceil((1 + inputSize) * STRING_TRAVERSAL_COST_FACTOR) *
    Math.ceil(regexSize * REGEX_STRING_LENGTH_COST_FACTOR)
  );
}

export function regexEstimate(input: SizeRange, regex: SizeRange): CostRange {
  return {
    min: regexCost(input.min, regex.min),
    max: saturate(regexCost(input.max, regex.max)),
  };
}

/** Unbounded sizes stay unbounded (upstream saturates at the largest uint64). */
function saturate(n: number): number {
  return Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
}
