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

import { charge } from './cost.ts';
import {
  chargeAfterBinary,
  chargeAfterCall,
  chargeAround,
  chargeBefore,
  concatCost,
  concatenated,
  constantValue,
  inCost,
  isLiteral,
  isNode,
  isTwoVar,
  type Node,
  negatedLiteral,
  operandSize,
  operands,
  orderingCost,
  type TwoVarMacro,
  walkNodes,
} from './cost-nodes.ts';
import { callCost } from './cost-table.ts';
import {
  comparisonCost,
  LIST_CREATE_BASE_COST,
  LIST_LITERAL_BASE_COST,
  MAP_CREATE_BASE_COST,
  STRING_TRAVERSAL_COST_FACTOR,
  stringSize,
} from './costs.ts';
import { UnsignedInt } from './engine.ts';
import type { CelLibrary } from './environment.ts';

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

/**
 * Installs the charging on a checked AST and returns what every evaluation costs before its first
 * branch (the root's stretch), which the evaluation charges as it starts (evaluate.ts).
 */
export function instrumentCost(root: unknown, options: InstrumentOptions): number {
  const { optimize } = options;
  const macroOf = new Map<Node, string>();
  const seen = new Set<unknown>();

  const isConstant = (n: unknown): boolean => {
    if (!isNode(n)) return false;
    if (n.meta.alternate !== undefined) return isConstant(n.meta.alternate);
    switch (n.op) {
      case 'value':
        return true;
      case '-_':
        return negatedLiteral(n) !== undefined;
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

  // Constant costs are charged once per stretch of the tree that always runs as a whole: a node
  // returns the constant cost of itself and of the operands it always evaluates, and whoever
  // evaluates it unconditionally adds that to its own. Only where evaluation may branch or repeat
  // (the right of && and ||, the branches of ?:, a comprehension's step) and at the root is a
  // constant charged, so a typical expression charges once or twice instead of once per node.
  // The totals are cel-go's; only an evaluation that fails midway is charged for the operands
  // after the failure too.
  // Lists the engine's macro expansions build (a comprehension's empty accumulator): cel-go's 10,
  // where a list literal written in the expression costs the spec's 40.
  const engineLists = new WeakSet<Node>();
  const visit = (x: unknown): number => {
    if (!isNode(x) || seen.has(x)) return 0;
    seen.add(x);
    const alt = x.meta.alternate;
    if (alt !== undefined) {
      // A macro call or a named constant: it costs what its expansion costs.
      if (alt.op === 'comprehension' && (x.op === 'rcall' || x.op === 'call'))
        macroOf.set(alt, (x.args as [string])[0]);
      const c = visit(alt);
      // The call's own operands are parts of the expansion; a macro's variable is never evaluated.
      walkNodes(x.args, (n) => void visit(n));
      return c;
    }
    let c = instrumentNode(x);
    for (const [child, always] of operands(x)) {
      const cc = visit(child);
      if (always) c += cc;
      else if (isNode(child)) chargeBefore(child, cc);
    }
    return c;
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
      if (isTwoVar(macro)) return instrumentTwoVar(macro);
      return 0;
    }
    switch (n.op) {
      case 'value':
      case '?:':
      case '&&':
      case '||':
        return 0;
      case '-_':
        // cel-go's parser reads `-5` as one literal.
        return negatedLiteral(n) === undefined ? 1 : 0;
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
        if (optimize && isConstant(n)) return 0;
        return engineLists.has(n) ? LIST_CREATE_BASE_COST : LIST_LITERAL_BASE_COST;
      case 'map':
        return optimize && isConstant(n) ? 0 : MAP_CREATE_BASE_COST;
      case '==':
      case '!=': {
        const [l, r] = n.args as [Node, Node];
        if (SCALARS.has(typeName(l)) || SCALARS.has(typeName(r))) return 1;
        const lit = [l, r].map(constantValue).find((v): v is string => typeof v === 'string');
        if (lit !== undefined) {
          // Only the smaller size counts, and the literal's is known: a string at least twice as
          // long (in UTF-16 units) has at least as many code points.
          const size = stringSize(lit);
          const cost = Math.ceil(size * STRING_TRAVERSAL_COST_FACTOR);
          return chargeAfterBinary(n, (a, b) => {
            const other = a === lit ? b : a;
            if (typeof other !== 'string') return comparisonCost(a, b);
            if (other.length >= 2 * size) return cost;
            return Math.ceil(Math.min(size, stringSize(other)) * STRING_TRAVERSAL_COST_FACTOR);
          });
        }
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
        // A string literal's size is known once (`'prefix:' + claims.sub`).
        const lit = [l, r].map(constantValue).find((v): v is string => typeof v === 'string');
        if (lit !== undefined) {
          const size = stringSize(lit);
          return chargeAfterBinary(n, (a, b, result) =>
            typeof a === 'string' && typeof b === 'string'
              ? concatenated(result, size + operandSize(a === lit ? b : a))
              : concatCost(a, b, result),
          );
        }
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
    // The accumulator's initial value (`[]`, `{}` or a literal) is a node of its own and charges itself:
    // an empty list there is the engine's, not a literal the expression wrote.
    const a = n.args as { init?: unknown; condition?: (accu: unknown) => unknown };
    if (isNode(a.init) && a.init.op === 'list') engineLists.add(a.init);
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

  // A two-variable comprehension runs its own loop: the per-iteration work of cel-go's expansion is
  // charged on its filter and body, each time they run (the condition after a deciding element of
  // all/exists, 2 or 3 units, is not charged).
  const instrumentTwoVar = (m: TwoVarMacro): number => {
    const { kind, filter, body } = m;
    if (filter !== undefined) {
      // `f ? step : __result__`: a rejected element reads the accumulator.
      chargeAround(filter, visit(filter), (passed) => (passed === true ? 0 : 1));
    }
    switch (kind) {
      case 'all':
      case 'exists':
        chargeAround(body, visit(body) + (kind === 'all' ? 2 : 3) + 1, undefined);
        return 1;
      case 'existsOne':
        chargeAround(body, visit(body), (r) => (r === true ? 2 : 1));
        return 2;
      default: {
        // `__result__ + [t]`, `cel.@mapInsert(__result__, k, t)`, `cel.@mapInsert(__result__, e)`.
        const step = kind === 'transformList' ? 2 + LIST_CREATE_BASE_COST : kind === 'transformMap' ? 3 : 2;
        chargeAround(body, visit(body) + step, undefined);
        const init = kind === 'transformList' ? LIST_CREATE_BASE_COST : MAP_CREATE_BASE_COST;
        return 1 + (optimize ? 0 : init);
      }
    }
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

  return isNode(root) ? visit(root) : 0;
}
