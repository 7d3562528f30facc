// Upstream's function costs, by function name as Kubernetes keys them (k8s.io/apiserver
// pkg/cel/library/cost.go CallCost and EstimateCallCost, v0.35), then cel-go's own size-dependent
// overloads (interpreter/runtimecost.go, checker/cost.go) and its extension libraries' trackers
// (ext/sets.go, ext/lists.go v3). A function not listed costs 1 per call. Both the engine's
// built-in functions and library overloads are charged from here, so a library whose functions
// upstream lists (lists, regex, url, ip, cidr, quantity, semver, format, authorizer, strings)
// needs no cost hooks of its own; an overload's `cost`/`estimateCost` hook, when given, wins.
//
// Run-time costs get the actual arguments, receiver first (a namespace such as `strings.` is not
// an argument), and the result. Estimates get what is known of the receiver and arguments and
// return the call's own cost: the estimator adds the arguments' costs.

import {
  CEL_GO,
  CEL_GO_MEMBER,
  constant,
  literalUint,
  ONE,
  size0,
  trav,
  travArg0,
} from './cost-table-celgo.ts';
import {
  addBounds,
  type Bounds,
  STRING_TRAVERSAL_COST_FACTOR as F,
  fixed,
  LIST_CREATE_BASE_COST,
  mulBounds,
  regexCost,
  scaleBounds,
  stringTraversalCost,
  traversalCost,
  UINT64_MAX,
  valueSize,
} from './costs.ts';
import { MAX_NAME_FORMAT_REGEX_SIZE } from './limits.ts';

/** What the estimator knows of one argument of a call (or of its receiver). */
export interface EstimateArg {
  /** Its size: computed from the expression, declared for a variable or field, or unknown. */
  readonly size: Bounds;
  /** `string`, `bytes`, `list`, `map`, `int`, `bool`, ..., `dyn`, or the name of an object or library type. */
  readonly kind: string;
  /** A list's element (a map's key): its kind and declared size (Kubernetes' listElementNode). */
  readonly elem?: { readonly kind: string; readonly size: Bounds };
  /** Its value, when the argument is a literal. */
  readonly literal?: unknown;
}

export interface EstimateCall {
  readonly target?: EstimateArg;
  readonly args: readonly EstimateArg[];
}

export interface CallEstimate {
  readonly cost: Bounds;
  /** The result's size, for functions returning strings, bytes, lists or maps. */
  readonly resultSize?: Bounds;
}

export interface CallCost {
  /** The same cost for every call (no need to look at the values). */
  readonly constant?: number;
  /** Run-time cost of one call. */
  readonly runtime?: (args: readonly unknown[], result: unknown) => number;
  /** Set when `runtime` reads the result, so it cannot be computed ahead for literal arguments. */
  readonly readsResult?: boolean;
  /** Static estimate of one call; undefined means "1 per call". */
  readonly estimate?: (call: EstimateCall) => CallEstimate | undefined;
}

// --- Kubernetes (library/cost.go) ------------------------------------------------------------------

// A label or field selector parses into requirements: a struct and a values list each, one per
// two characters at most (cost.go selectorCostEstimate).
function selectorCost(size: Bounds): Bounds {
  const parse = scaleBounds(size, F);
  const requirements = scaleBounds(scaleBounds(size, 0.5), LIST_CREATE_BASE_COST + 40);
  return addBounds(addBounds(fixed(LIST_CREATE_BASE_COST), parse), requirements);
}

/** O(n) list functions: 1 per element, plus the traversal of string or bytes elements. */
function listTraversalEstimate(c: EstimateCall): CallEstimate | undefined {
  const t = c.target;
  if (t === undefined) return undefined;
  if (t.elem !== undefined) {
    let el = ONE;
    if (t.elem.kind === 'string' || t.elem.kind === 'bytes') el = addBounds(el, trav(t.elem.size));
    return { cost: mulBounds(t.size, el) };
  }
  return { cost: trav(t.size) };
}

/** `s.replace(old, new)`: the longest and shortest results (cost.go). */
function replaceSize(sz: Bounds, old: Bounds, repl: Bounds): Bounds {
  let countMax: bigint;
  let keptMax = 0n;
  if (old.min === 0n) {
    countMax = sz.max < UINT64_MAX ? sz.max + 1n : sz.max;
    keptMax = sz.max;
  } else if (repl.max <= old.min) {
    countMax = 0n;
    keptMax = sz.max;
  } else countMax = BigInt(Math.ceil(Number(sz.max) / Number(old.min)));
  let countMin: bigint;
  let keptMin = 0n;
  if (old.max === 0n) {
    countMin = sz.min < UINT64_MAX ? sz.min + 1n : sz.min;
    keptMin = sz.min;
  } else if (old.max <= repl.min) {
    countMin = 0n;
    keptMin = sz.min;
  } else countMin = BigInt(Math.ceil(Number(sz.min) / Number(old.max)));
  return addBounds(mulBounds({ min: countMin, max: countMax }, repl), { min: keptMin, max: keptMax });
}

function joinEstimate(c: EstimateCall): CallEstimate | undefined {
  const t = c.target;
  if (t === undefined) return undefined;
  let sz = t.elem !== undefined ? mulBounds(t.size, t.elem.size) : fixed(0);
  if (c.args.length > 0) {
    const seps = { min: t.size.min > 0n ? t.size.min - 1n : 0n, max: t.size.max > 0n ? t.size.max - 1n : 0n };
    sz = addBounds(sz, mulBounds(c.args[0].size, seps));
  }
  return { cost: trav(sz), resultSize: sz };
}

// IPs compare as 4 or 16 bytes; a string argument is parsed first (cost.go containsIP/containsCIDR).
const IP_BYTES: Bounds = { min: 4n, max: 16n };
function cidrContainsEstimate(extra: Bounds) {
  return (c: EstimateCall): CallEstimate | undefined => {
    if (c.args.length < 1) return undefined;
    let cost = addBounds(trav(addBounds(IP_BYTES, IP_BYTES)), extra);
    if (c.args[0].kind === 'string') cost = addBounds(cost, trav(c.args[0].size));
    return { cost };
  };
}
function cidrContainsRuntime(withMask: boolean) {
  return (args: readonly unknown[]): number => {
    const c = valueSize(args[0]);
    let cost = Math.ceil((c + c) * F);
    if (withMask) cost += Math.ceil(c * F) + 1;
    if (typeof args[1] === 'string') cost += stringTraversalCost(valueSize(args[1]));
    return cost;
  };
}

const stringScan: CallCost = {
  runtime: travArg0,
  estimate: (c) => (c.args.length >= 1 ? { cost: trav(size0(c)) } : undefined),
};
const receiverScan: CallCost = {
  runtime: travArg0,
  estimate: (c) =>
    c.target !== undefined ? { cost: trav(c.target.size), resultSize: c.target.size } : undefined,
};
const doubleScan = (args: readonly unknown[]) => Math.ceil(valueSize(args[0]) * 2 * F);

const KUBERNETES: Record<string, CallCost> = {
  // An authorization check is fixed so that an expression affords about two of them.
  check: constant(350_000),
  ...Object.fromEntries(
    [
      'serviceAccount',
      'path',
      'group',
      'resource',
      'subresource',
      'namespace',
      'name',
      'allowed',
      'reason',
      'error',
      'errored',
    ].map((n) => [n, constant(1)]),
  ),
  ...Object.fromEntries(
    ['fieldSelector', 'labelSelector'].map((n) => [
      n,
      {
        runtime: (args: readonly unknown[]) =>
          args.length >= 2 ? Number(selectorCost(fixed(valueSize(args[1]))).max) : 1,
        estimate: (c: EstimateCall) =>
          c.args.length === 1 ? { cost: selectorCost(c.args[0].size) } : undefined,
      },
    ]),
  ),
  ...Object.fromEntries(
    ['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf'].map((n) => [
      n,
      {
        runtime: (args: readonly unknown[]) => (args.length > 0 ? traversalCost(args[0]) : 0),
        estimate: listTraversalEstimate,
      },
    ]),
  ),
  url: {
    runtime: travArg0,
    estimate: (c) => (c.args.length === 1 ? { cost: trav(size0(c)), resultSize: size0(c) } : undefined),
  },
  'jsonpatch.escapeKey': {
    runtime: travArg0,
    estimate: (c) => (c.args.length === 1 ? { cost: trav(size0(c)), resultSize: size0(c) } : undefined),
  },
  lowerAscii: receiverScan,
  upperAscii: receiverScan,
  substring: receiverScan,
  trim: receiverScan,
  replace: {
    runtime: doubleScan,
    estimate: (c) =>
      c.target !== undefined && c.args.length >= 2
        ? {
            cost: scaleBounds(c.target.size, 2 * F),
            resultSize: replaceSize(c.target.size, c.args[0].size, c.args[1].size),
          }
        : undefined,
  },
  split: {
    runtime: doubleScan,
    estimate: (c) =>
      c.target !== undefined
        ? {
            cost: scaleBounds(c.target.size, 2 * F),
            resultSize: {
              min: 0n,
              max: c.args.length > 1 ? literalUint(c.args[1], c.target.size.max) : c.target.size.max,
            },
          }
        : undefined,
  },
  join: {
    runtime: (_a, result) => Math.ceil(valueSize(result) * 2 * F),
    readsResult: true,
    estimate: joinEstimate,
  },
  ...Object.fromEntries(
    ['find', 'findAll'].map((n) => [
      n,
      {
        runtime: (args: readonly unknown[]) =>
          args.length >= 2 ? regexCost(valueSize(args[1]), valueSize(args[0])) : 1,
        estimate: (c: EstimateCall) => {
          if (c.target === undefined || c.args.length < 1) return undefined;
          const str = scaleBounds(addBounds(c.target.size, ONE), F);
          const re = scaleBounds(c.args[0].size, 0.25);
          return { cost: mulBounds(str, re), resultSize: { min: 0n, max: c.target.size.max } };
        },
      },
    ]),
  ),
  cidr: stringScan,
  isIP: stringScan,
  isCIDR: stringScan,
  // cidr.ip() reads a field (size 1, so 1); ip(string) parses.
  ip: {
    runtime: travArg0,
    estimate: (c) => (c.target !== undefined ? { cost: ONE } : stringScan.estimate?.(c)),
  },
  'ip.isCanonical': {
    runtime: doubleScan,
    estimate: (c) => (c.args.length >= 1 ? { cost: scaleBounds(size0(c), 2 * F) } : undefined),
  },
  ...Object.fromEntries(
    [
      'masked',
      'prefixLength',
      'family',
      'isUnspecified',
      'isLoopback',
      'isLinkLocalMulticast',
      'isLinkLocalUnicast',
      'isGlobalUnicast',
    ].map((n) => [n, constant(1)]),
  ),
  containsIP: { runtime: cidrContainsRuntime(false), estimate: cidrContainsEstimate(fixed(0)) },
  containsCIDR: {
    runtime: cidrContainsRuntime(true),
    estimate: cidrContainsEstimate(addBounds(trav(IP_BYTES), ONE)),
  },
  quantity: stringScan,
  isQuantity: stringScan,
  semver: stringScan,
  isSemver: stringScan,
  // A named format's value carries the length of its longest regular expression (maxRegexSize).
  validate: {
    runtime: (args) => {
      const max = (args[0] as { maxRegexSize?: unknown } | null)?.maxRegexSize;
      return typeof max === 'number' && args.length >= 2 ? regexCost(max, valueSize(args[1])) : 1;
    },
    estimate: (c) =>
      c.args.length >= 1
        ? { cost: scaleBounds(trav(size0(c)), MAX_NAME_FORMAT_REGEX_SIZE * 0.25) }
        : undefined,
  },
  'format.named': constant(1),
  ...Object.fromEntries(
    [
      'sign',
      'asInteger',
      'isInteger',
      'asApproximateFloat',
      'isGreaterThan',
      'isLessThan',
      'compareTo',
      'add',
      'sub',
      'major',
      'minor',
      'patch',
      'getScheme',
      'getHostname',
      'getHost',
      'getPort',
      'getEscapedPath',
      'getQuery',
    ].map((n) => [n, constant(1)]),
  ),
};

/**
 * The cost rule for a call of `name` (namespaced functions by their full name, `strings.quote`),
 * or undefined for "1 per call". Kubernetes' rules come first, as upstream consults its estimator
 * before cel-go's defaults.
 */
export function callCost(name: string, member: boolean): CallCost | undefined {
  return own(KUBERNETES, name) ?? own(CEL_GO, name) ?? (member ? own(CEL_GO_MEMBER, name) : undefined);
}

function own(table: Record<string, CallCost>, name: string): CallCost | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
