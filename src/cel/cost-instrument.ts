// Installs runtime cost charging on a checked program, node by node, with the costs cel-go's
// tracker charges (interpreter/runtimecost.go) as kube-apiserver configures it: an identifier or
// field selection 1, a literal 0, a list 10 and a map 30 (constant ones 0, since upstream plans
// with OptOptimize), `&&`, `||` and `?:` nothing of their own, a call 1 or what upstream's rule
// for that function says (cost-table.ts, or the overload's own hook), `==` and string ordering by
// the smaller size, `+` on strings by both sizes, `in` a list by its size, and comprehensions the
// per-iteration work of cel-go's macro expansion (so `l.all(x, p)` costs what cel-go's fold costs).
//
// It reads the engine's AST (@marcbachmann/cel-js node shapes: `op`, `args`, `meta`, `handle`)
// without importing the package. Only nodes that cost something are wrapped, and a node whose
// cost does not depend on the values charges a constant before it runs; value-dependent ones
// (`==` on strings, size-charged calls) wrap the function the node already chose at check time.

import { charge, isTracking, takeReportedCallCost } from './cost.ts';
import { type CallCost, callCost } from './cost-table.ts';
import {
  comparisonCost,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  STRING_TRAVERSAL_COST_FACTOR,
  valueSize,
} from './costs.ts';
import { UnsignedInt } from './engine.ts';
import type { CelLibrary } from './environment.ts';

type Eval = (this: unknown, ev: unknown, ast: unknown, ctx: unknown) => unknown;
// biome-ignore lint/suspicious/noExplicitAny: the engine's per-node function; its arity depends on op.
type Handle = (this: unknown, ...args: any[]) => unknown;

/** The parts of an engine AST node the instrumentation reads and replaces. */
interface Node {
  op: string;
  args: unknown;
  meta: {
    evaluate: Eval;
    alternate?: Node;
    macro?: Record<string, unknown> & { evaluate: Eval };
  };
  evaluate: Eval;
  handle?: Handle;
  checkedType?: { name: string; kind: string };
}

export interface InstrumentOptions {
  /** Function names (namespaced ones in full, `strings.quote`) with an overload that has a `cost` hook. */
  readonly hooked: ReadonlySet<string>;
  /**
   * Plan like cel-go's OptOptimize, which kube-apiserver's base environment sets: list and map
   * literals of constants, conversions of constants and `in` over a list of constants are
   * computed once, so they cost nothing at run time (the estimate still counts them).
   */
  readonly optimize: boolean;
}

const hookedCache = new WeakMap<readonly CelLibrary[], ReadonlySet<string>>();

/** The function names (in full, `strings.quote`) that some overload of `libraries` charges by its own hook. */
export function hookedFunctions(libraries: readonly CelLibrary[]): ReadonlySet<string> {
  let names = hookedCache.get(libraries);
  if (names === undefined) {
    const set = new Set<string>();
    for (const lib of libraries)
      for (const f of lib.functions) if (f.overloads.some((o) => o.cost !== undefined)) set.add(f.name);
    names = set;
    hookedCache.set(libraries, names);
  }
  return names;
}

function isNode(x: unknown): x is Node {
  return (
    typeof x === 'object' &&
    x !== null &&
    'op' in x &&
    'meta' in x &&
    typeof (x as Node).evaluate === 'function'
  );
}

/** cel-go's type conversion functions (overloads.IsTypeConversionFunction). */
const CONVERSIONS = new Set([
  'bool',
  'bytes',
  'double',
  'duration',
  'dyn',
  'int',
  'string',
  'timestamp',
  'type',
  'uint',
]);

/** Per-macro costs of cel-go's expansion beyond the user's predicate and transform. */
interface MacroCost {
  /** Charged once: the result expression (`__result__` 1, `__result__ == 1` 2). */
  result: number;
  /** The loop condition, charged before every iteration (all 2, exists 3; others are `true`). */
  condition?: number;
}
const MACROS: Readonly<Record<string, MacroCost>> = {
  all: { result: 1, condition: 2 },
  exists: { result: 1, condition: 3 },
  exists_one: { result: 2 },
  existsOne: { result: 2 },
  map: { result: 1 },
  filter: { result: 1 },
  transformList: { result: 1 },
  transformMap: { result: 1 },
  transformMapEntry: { result: 1 },
};

/** Scalar types whose `==` and ordering always cost 1. */
const SCALARS = new Set([
  'int',
  'uint',
  'double',
  'bool',
  'null',
  'google.protobuf.Timestamp',
  'google.protobuf.Duration',
]);
const typeName = (n: unknown) => (isNode(n) ? (n.checkedType?.name ?? 'dyn') : 'dyn');
const maySize = (t: string) => t === 'string' || t === 'bytes' || t === 'dyn' || t.startsWith('dyn<');

export function instrumentCost(root: unknown, options: InstrumentOptions): void {
  const { optimize } = options;
  const macroOf = new Map<Node, string>();
  const seen = new Set<unknown>();

  const isConstant = (n: unknown): boolean => {
    if (!isNode(n)) return false;
    if (n.meta.alternate !== undefined) return isConstant(n.meta.alternate);
    switch (n.op) {
      case 'value':
        return true;
      case 'list':
        return (n.args as unknown[]).every(isConstant);
      case 'map':
        return (n.args as unknown[][]).every((e) => isConstant(e[0]) && isConstant(e[1]));
      case 'call': {
        const [name, args] = n.args as [string, unknown[]];
        return optimize && CONVERSIONS.has(name) && args.length === 1 && isConstant(args[0]);
      }
      default:
        return false;
    }
  };

  const visit = (x: unknown): void => {
    if (typeof x !== 'object' || x === null || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) {
      for (const e of x) visit(e);
      return;
    }
    if (!isNode(x)) {
      if (Object.getPrototypeOf(x) === Object.prototype) for (const v of Object.values(x)) visit(v);
      return;
    }
    const alt = x.meta.alternate;
    if (alt !== undefined) {
      // A macro call or a named constant: it costs what its expansion costs.
      if (alt.op === 'comprehension' && (x.op === 'rcall' || x.op === 'call'))
        macroOf.set(alt, (x.args as [string])[0]);
      visit(alt);
      visit(x.args);
      return;
    }
    chargeBefore(x, instrumentNode(x));
    visit(x.args);
    if (x.meta.macro !== undefined) for (const v of Object.values(x.meta.macro)) visit(v);
  };

  /** Installs value-dependent charging on `n`, or returns the constant `n` costs each time it runs. */
  const instrumentNode = (n: Node): number => {
    const macro = n.meta.macro;
    if (macro !== undefined) {
      // has(a.b.c): the presence test costs 0 (upstream sets PresenceTestHasCost(false)), the
      // selections before it 1 each; the identifier charges itself.
      const props = macro.macroHasProps;
      if (Array.isArray(props)) return Math.max(0, props.length - 2);
      // cel.bind(v, init, e) is a fold over an empty list literal: 0 once folded, else its 10.
      if ('val' in macro && 'exp' in macro) return optimize ? 0 : LIST_CREATE_BASE_COST;
      return 0;
    }
    switch (n.op) {
      case 'value':
      case '?:':
      case '&&':
      case '||':
        return 0;
      case '-_': {
        // cel-go's parser reads `-5` as one literal.
        const a = n.args as Node;
        if (a.op === 'value' && (typeof a.args === 'number' || typeof a.args === 'bigint')) return 0;
        return 1;
      }
      case 'id':
      case '.':
      case '.?':
      case '[]':
      case '[?]':
      case '!_':
      case '-':
      case '*':
      case '/':
      case '%':
        return 1;
      case 'list':
        return optimize && isConstant(n) ? 0 : LIST_CREATE_BASE_COST;
      case 'map':
        return optimize && isConstant(n) ? 0 : MAP_CREATE_BASE_COST;
      case '==':
      case '!=': {
        const [l, r] = n.args as [Node, Node];
        if (SCALARS.has(typeName(l)) || SCALARS.has(typeName(r))) return 1;
        return chargeAfterBinary(n, comparisonCost);
      }
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const [l, r] = n.args as [Node, Node];
        if (!maySize(typeName(l)) && !maySize(typeName(r))) return 1;
        return chargeAfterBinary(n, orderingCost);
      }
      case '+': {
        const [l, r] = n.args as [Node, Node];
        if (!maySize(typeName(l)) && !maySize(typeName(r))) return 1;
        return chargeAfterBinary(n, concatCost);
      }
      case 'in': {
        const [, r] = n.args as [Node, Node];
        if (optimize && isSetMembership(r)) return 0;
        if (typeName(r).startsWith('map<')) return 1;
        return chargeAfterBinary(n, inCost);
      }
      case 'call':
      case 'rcall':
        return instrumentCall(n);
      case 'comprehension':
        return instrumentComprehension(n);
      case 'accuValue':
        // `__result__` in cel-go's expansion.
        return 1;
      case 'accuInc':
        // `__result__ + 1`
        return 2;
      case 'accuPush':
        // `__result__ + [e]`: the concatenation, the accumulator and the one-element list.
        return 2 + LIST_CREATE_BASE_COST;
      default:
        return 1;
    }
  };

  // cel-go turns `x in [constant primitives]` into a set lookup that costs nothing.
  const isSetMembership = (list: Node): boolean =>
    list.op === 'list' &&
    isConstant(list) &&
    (list.args as Node[]).every((e) => {
      const v = constantValue(e);
      return (
        typeof v === 'string' ||
        typeof v === 'bigint' ||
        typeof v === 'number' ||
        typeof v === 'boolean' ||
        v instanceof UnsignedInt
      );
    });

  const instrumentComprehension = (n: Node): number => {
    const name = macroOf.get(n);
    const m = name === undefined ? undefined : MACROS[name];
    if (m === undefined) return 1;
    // The accumulator's initial value (`[]`, `{}` or a literal) is a node of its own and charges itself.
    const a = n.args as { condition?: (accu: unknown) => unknown };
    const resultCost = m.result;
    const cond = a.condition;
    const c = m.condition;
    if (cond !== undefined && c !== undefined) {
      // The condition runs before each iteration; when it lets the step run, the step's
      // `__result__ && p` (or `||`) reads the accumulator once more.
      a.condition = (accu: unknown) => {
        const go = cond(accu);
        charge(go ? c + 1 : c);
        return go;
      };
    }
    return resultCost;
  };

  const instrumentCall = (n: Node): number => {
    let name: string;
    let argNodes: unknown[];
    let namespaced = false;
    if (n.op === 'rcall') {
      const [method, receiver, args] = n.args as [string, Node, unknown[]];
      namespaced = isNode(receiver) && receiver.op === 'id' && receiver.meta.alternate !== undefined;
      name = namespaced ? `${receiver.args as string}.${method}` : method;
      argNodes = namespaced ? args : [receiver, ...args];
    } else {
      [name, argNodes] = n.args as [string, unknown[]];
    }
    const member = n.op === 'rcall' && !namespaced;
    if (optimize && !member && CONVERSIONS.has(name) && argNodes.length === 1 && isConstant(argNodes[0]))
      return 0;
    const rule = callCost(name, member);
    if (!options.hooked.has(name)) {
      if (rule === undefined) return 1;
      if (rule.constant !== undefined) return rule.constant;
      if (rule.runtime !== undefined && !rule.readsResult && argNodes.every(isLiteral)) {
        return rule.runtime(argNodes.map(constantValue), undefined);
      }
    }
    return chargeAfterCall(n, rule, namespaced);
  };

  visit(root);
}

/** A literal, or a named constant whose value is one. */
function isLiteral(n: unknown): boolean {
  if (!isNode(n)) return false;
  if (n.meta.alternate !== undefined) return isLiteral(n.meta.alternate);
  return n.op === 'value';
}

/** The value of a constant node (a literal, or a named constant). */
function constantValue(n: unknown): unknown {
  if (!isNode(n)) return undefined;
  if (n.meta.alternate !== undefined) return constantValue(n.meta.alternate);
  return n.op === 'value' ? n.args : undefined;
}

function orderingCost(l: unknown, r: unknown): number {
  if (
    (typeof l === 'string' && typeof r === 'string') ||
    (l instanceof Uint8Array && r instanceof Uint8Array)
  ) {
    return comparisonCost(l, r);
  }
  return 1;
}

function concatCost(l: unknown, r: unknown): number {
  if (
    (typeof l === 'string' && typeof r === 'string') ||
    (l instanceof Uint8Array && r instanceof Uint8Array)
  ) {
    return Math.ceil((valueSize(l) + valueSize(r)) * STRING_TRAVERSAL_COST_FACTOR);
  }
  return 1;
}

function inCost(_l: unknown, r: unknown): number {
  return Array.isArray(r) || r instanceof Set ? valueSize(r) : 1;
}

/** The node's evaluator as the engine would resolve it on first use. */
function resolvedEval(n: Node): Eval {
  const macro = n.meta.macro;
  if (macro !== undefined) return (ev, _ast, ctx) => macro.evaluate(ev, macro, ctx);
  return n.meta.evaluate;
}

function chargeBefore(n: Node, cost: number): void {
  if (cost === 0) return;
  const inner = resolvedEval(n);
  n.evaluate = function (this: unknown, ev, ast, ctx) {
    charge(cost);
    return inner.call(this, ev, ast, ctx);
  };
}

/** Charges what `cost` says of the operands once the operator ran; returns what is left to charge before. */
function chargeAfterBinary(n: Node, cost: (l: unknown, r: unknown) => number): number {
  const h = n.handle;
  if (h === undefined) return 1;
  n.handle = function (this: unknown, l: unknown, r: unknown, ast: unknown, ev: unknown) {
    const v = h.call(this, l, r, ast, ev);
    if (isTracking()) charge(cost(l, r));
    return v;
  };
  return 0;
}

/** Charges the call once it ran: its hook's report, its rule, or 1; returns what is left to charge before. */
function chargeAfterCall(n: Node, rule: CallCost | undefined, namespaced: boolean): number {
  const h = n.handle;
  if (h === undefined) return 1;
  const runtime = rule?.runtime;
  const fixedCost = rule?.constant ?? 1;
  // `call` nodes pass (values, ast, ev), `rcall` nodes (receiverAndValues, ev, ast): the values come first.
  n.handle = function (this: unknown, values: unknown[], b: unknown, c: unknown) {
    takeReportedCallCost();
    const v = h.call(this, values, b, c);
    if (isTracking()) {
      let cost = takeReportedCallCost();
      if (cost < 0)
        cost = runtime === undefined ? fixedCost : runtime(namespaced ? values.slice(1) : values, v);
      charge(cost);
    }
    return v;
  };
  return 0;
}
