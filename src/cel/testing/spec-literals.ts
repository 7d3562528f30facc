// Upstream's cost figures, moved to the spec's list-literal base. cel-go charges every list
// creation 10; the spec charges a list literal written in the expression 40 (costs.ts). Tests keep
// upstream's figure as the fact it is and say how many literal creations it counts, so each
// expectation reads as "upstream's number, plus 30 for each literal".
import { LIST_CREATE_BASE_COST, LIST_LITERAL_BASE_COST } from '../costs.ts';

/** What the spec adds to upstream's figure for each list literal it creates. */
export const SPEC_LITERAL_EXTRA = LIST_LITERAL_BASE_COST - LIST_CREATE_BASE_COST;

/** Upstream's cost `upstream`, which counts `literals` list-literal creations, under the spec's model. */
export function specCost(upstream: number, literals: number): number;
export function specCost(upstream: bigint, literals: number): bigint;
export function specCost(upstream: number | bigint, literals: number): number | bigint {
  return typeof upstream === 'bigint'
    ? upstream + BigInt(SPEC_LITERAL_EXTRA * literals)
    : upstream + SPEC_LITERAL_EXTRA * literals;
}

/** Upstream's estimate range, each bound counting `literals` list-literal creations. */
export function specRange<T extends number | bigint>(
  upstream: { min: T; max: T },
  literals: number,
  maxLiterals = literals,
): { min: T; max: T } {
  const shift = (v: T, n: number): T =>
    (typeof v === 'bigint'
      ? v + BigInt(SPEC_LITERAL_EXTRA * n)
      : (v as number) + SPEC_LITERAL_EXTRA * n) as T;
  return { min: shift(upstream.min, literals), max: shift(upstream.max, maxLiterals) };
}
