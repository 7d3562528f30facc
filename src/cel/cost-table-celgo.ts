// cel-go's own size-dependent costs (interpreter/runtimecost.go and checker/cost.go per overload)
// and its extension libraries' trackers and estimators (ext/sets.go, ext/lists.go version 3), by
// function name, plus the small helpers the rule tables share. cost-table.ts consults these after
// Kubernetes' rules, as upstream consults its estimator before cel-go's defaults.

import type { CallCost, CallEstimate, EstimateArg, EstimateCall } from './cost-table.ts';
import {
  addBounds,
  type Bounds,
  containsCost,
  STRING_TRAVERSAL_COST_FACTOR as F,
  fixed,
  LIST_CREATE_BASE_COST,
  mulBounds,
  regexCost,
  scaleBounds,
  stringTraversalCost,
  UINT64_MAX,
  UNKNOWN_SIZE,
  valueSize,
} from './costs.ts';

export const ONE = fixed(1);
export const trav = (b: Bounds) => scaleBounds(b, F);
export const travArg0 = (args: readonly unknown[]) => stringTraversalCost(valueSize(args[0]));
export const size0 = (c: EstimateCall) => c.args[0]?.size ?? UNKNOWN_SIZE;
export const constant = (n: number): CallCost => ({ constant: n });

export function literalUint(a: EstimateArg | undefined, otherwise: bigint): bigint {
  const v = a?.literal;
  if (typeof v !== 'bigint') return otherwise;
  return v < 0n ? 0n : v;
}

// --- cel-go's standard and extension libraries -------------------------------------------------------

/** Allocating list functions of ext/lists.go: factor × size, plus the call and the new list. */
const allocating = (factor: number, size: Bounds): CallEstimate => ({
  cost: addBounds(scaleBounds(size, factor), fixed(1 + LIST_CREATE_BASE_COST)),
  resultSize: size,
});
const trackAllocating = (factor: number, size: number) =>
  Math.trunc(size * factor) + 1 + LIST_CREATE_BASE_COST;

function selfCompare(list: unknown): number {
  const sz = valueSize(list);
  if (sz === 0) return trackAllocating(2, 0);
  const first = Array.isArray(list) ? list[0] : undefined;
  const factor = typeof first === 'string' || first instanceof Uint8Array ? 2 + F : 2;
  return trackAllocating(factor, sz * sz);
}

function setsCost(factor: number): CallCost {
  return {
    runtime: (args) => 1 + Math.trunc(valueSize(args[0]) * valueSize(args[1]) * factor),
    estimate: (c) =>
      c.args.length === 2
        ? { cost: addBounds(scaleBounds(mulBounds(c.args[0].size, c.args[1].size), factor), ONE) }
        : undefined,
  };
}

export const CEL_GO: Record<string, CallCost> = {
  startsWith: {
    runtime: travArg0,
    estimate: (c) => (c.args.length === 1 ? { cost: trav(size0(c)) } : undefined),
  },
  endsWith: {
    runtime: travArg0,
    estimate: (c) => (c.args.length === 1 ? { cost: trav(size0(c)) } : undefined),
  },
  string: {
    runtime: (args) => (args[0] instanceof Uint8Array ? stringTraversalCost(args[0].length) : 1),
    estimate: (c) => {
      const a = c.args[0];
      if (c.args.length !== 1 || a.kind !== 'bytes') return undefined;
      return { cost: trav(a.size), resultSize: { min: a.size.min / 4n, max: a.size.max } };
    },
  },
  bytes: {
    runtime: (args) => (typeof args[0] === 'string' ? travArg0(args) : 1),
    estimate: (c) => {
      const a = c.args[0];
      if (c.args.length !== 1 || a.kind !== 'string') return undefined;
      return {
        cost: trav(a.size),
        resultSize: { min: a.size.min, max: a.size.max * 4n > UINT64_MAX ? UINT64_MAX : a.size.max * 4n },
      };
    },
  },
  'strings.quote': {
    runtime: travArg0,
    estimate: (c) => {
      if (c.args.length !== 1) return undefined;
      const s = c.args[0].size;
      return {
        cost: trav(s),
        resultSize: addBounds(
          { min: s.min, max: s.max * 2n > UINT64_MAX ? UINT64_MAX : s.max * 2n },
          fixed(2),
        ),
      };
    },
  },
  'sets.contains': setsCost(1),
  'sets.intersects': setsCost(1),
  'sets.equivalent': setsCost(2),
  'lists.range': {
    runtime: (_a, result) => trackAllocating(1, valueSize(result)),
    readsResult: true,
    estimate: (c) =>
      c.args.length === 1 ? allocating(1, fixed(literalUint(c.args[0], UINT64_MAX))) : undefined,
  },
};

/** Member-only overloads: `s.matches(re)` is charged by size, the global `matches(s, re)` is not. */
export const CEL_GO_MEMBER: Record<string, CallCost> = {
  matches: {
    runtime: (args) => regexCost(valueSize(args[1]), valueSize(args[0])),
    estimate: (c) => {
      if (c.target === undefined || c.args.length !== 1) return undefined;
      const str = scaleBounds(addBounds(c.target.size, ONE), F);
      return { cost: mulBounds(str, scaleBounds(c.args[0].size, 0.25)) };
    },
  },
  contains: {
    runtime: (args) =>
      typeof args[0] === 'string' ? containsCost(valueSize(args[0]), valueSize(args[1])) : 1,
    estimate: (c) =>
      c.target !== undefined && c.args.length === 1
        ? { cost: mulBounds(trav(c.target.size), trav(c.args[0].size)) }
        : undefined,
  },
  format: {
    runtime: (args) => (typeof args[0] === 'string' ? travArg0(args) : 1),
    estimate: (c) => (c.target !== undefined ? { cost: trav(c.target.size) } : undefined),
  },
  slice: {
    runtime: (_a, result) => trackAllocating(1, valueSize(result)),
    readsResult: true,
    estimate: (c) => {
      if (c.target === undefined || c.args.length !== 2) return undefined;
      const start = literalUint(c.args[0], 0n);
      const end = literalUint(c.args[1], c.target.size.max);
      return allocating(1, fixed(end > start ? end - start : 0n));
    },
  },
  reverse: {
    runtime: (args, result) => (Array.isArray(args[0]) ? trackAllocating(1, valueSize(result)) : 1),
    readsResult: true,
    estimate: (c) => (c.target?.kind === 'list' ? allocating(1, c.target.size) : undefined),
  },
  flatten: {
    runtime: (args) => trackAllocating(args.length === 2 ? Number(args[1]) : 1, valueSize(args[0])),
    estimate: (c) => {
      if (c.target === undefined || c.args.length > 1) return undefined;
      const depth = c.args.length === 1 ? literalUint(c.args[0], UINT64_MAX) : 1n;
      return allocating(Number(depth), c.target.size);
    },
  },
  distinct: {
    runtime: (args) => selfCompare(args[0]),
    estimate: (c) =>
      c.target !== undefined ? allocating(2, mulBounds(c.target.size, c.target.size)) : undefined,
  },
  sort: {
    runtime: (args) => selfCompare(args[0]),
    estimate: (c) => {
      const t = c.target;
      if (t === undefined) return undefined;
      const factor = t.elem?.kind === 'string' || t.elem?.kind === 'bytes' ? 2 + F : 2;
      return allocating(factor, mulBounds(t.size, t.size));
    },
  },
  '@sortByAssociatedKeys': {
    runtime: (args) => selfCompare(args[1]),
    estimate: (c) => {
      const k = c.args[0];
      if (c.target === undefined || k === undefined) return undefined;
      const factor = k.elem?.kind === 'string' || k.elem?.kind === 'bytes' ? 2 + F : 2;
      return allocating(factor, mulBounds(k.size, k.size));
    },
  },
};
