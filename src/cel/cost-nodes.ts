// The node-level pieces of runtime cost charging (cost-instrument.ts decides what to charge
// where): the engine's AST as far as charging reads it, which operands a node always evaluates,
// and the wrappers that charge a constant before a node runs or a value-dependent cost after an
// operator or call has run. Engine-specific (cel-js node shapes), without importing the package.

import { charge, isTracking, takeReportedCallCost } from './cost.ts';
import type { CallCost } from './cost-table.ts';
import { comparisonCost, STRING_TRAVERSAL_COST_FACTOR, stringSize, valueSize } from './costs.ts';

export type Eval = (this: unknown, ev: unknown, ast: unknown, ctx: unknown) => unknown;
// biome-ignore lint/suspicious/noExplicitAny: the engine's per-node function; its arity depends on op.
type Handle = (this: unknown, ...args: any[]) => unknown;

/** The parts of an engine AST node the instrumentation reads and replaces. */
export interface Node {
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

export function isNode(x: unknown): x is Node {
  return (
    typeof x === 'object' &&
    x !== null &&
    'op' in x &&
    'meta' in x &&
    typeof (x as Node).evaluate === 'function'
  );
}

/** A node's operands, each with whether it is evaluated (once) whenever the node is. */
export function operands(n: Node): [unknown, boolean][] {
  const a = n.args;
  const macro = n.meta.macro;
  if (macro !== undefined) {
    const props = macro.macroHasProps;
    // has(): only the identifier at the bottom of the selection is evaluated (the engine's
    // macro), or the selection's operand (the optionals library's).
    if (Array.isArray(props)) return [[props[props.length - 1], true]];
    if (isHas(macro)) return [[(macro.arg.args as unknown[])[0], true]];
    if ('val' in macro && 'exp' in macro)
      return [
        [macro.val, true],
        [macro.exp, true],
      ];
    if (isTwoVar(macro)) return [[macro.range, true]];
    return Object.values(macro).map((v) => [v, false]);
  }
  switch (n.op) {
    case 'value':
    case 'id':
    case 'accuValue':
    case 'accuInc':
      return [];
    case '.':
    case '.?':
      return [[(a as unknown[])[0], true]];
    case '!_':
    case '-_':
    case 'accuPush':
      return [[a, true]];
    case '&&':
    case '||':
      return [
        [(a as unknown[])[0], true],
        [(a as unknown[])[1], false],
      ];
    case '?:':
      return [
        [(a as unknown[])[0], true],
        [(a as unknown[])[1], false],
        [(a as unknown[])[2], false],
      ];
    case 'list':
      return (a as unknown[]).map((e) => [e, true]);
    case 'map':
      return (a as unknown[][]).flatMap(
        (e) =>
          [
            [e[0], true],
            [e[1], true],
          ] as [unknown, boolean][],
      );
    case 'call':
      return ((a as [string, unknown[]])[1] ?? []).map((e) => [e, true]);
    case 'rcall': {
      const [, receiver, args] = a as [string, unknown, unknown[]];
      return [[receiver, true], ...(args ?? []).map((e): [unknown, boolean] => [e, true])];
    }
    case 'comprehension': {
      const c = a as { iterable?: unknown; init?: unknown; step?: unknown };
      return [
        [c.iterable, true],
        [c.init, true],
        [c.step, false],
      ];
    }
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case 'in':
    case '[]':
    case '[?]':
      return (a as unknown[]).map((e) => [e, true]);
    default: {
      // An operation the model does not know: each of its parts charges for itself.
      const parts: [unknown, boolean][] = [];
      walkNodes(a, (e) => parts.push([e, false]));
      return parts;
    }
  }
}

/** Calls `fn` on each node in `x`: a node, or arrays and plain objects holding nodes. */
export function walkNodes(x: unknown, fn: (n: Node) => void): void {
  if (isNode(x)) fn(x);
  else if (Array.isArray(x)) for (const e of x) walkNodes(e, fn);
  else if (typeof x === 'object' && x !== null && Object.getPrototypeOf(x) === Object.prototype) {
    for (const v of Object.values(x)) walkNodes(v, fn);
  }
}

/** A literal, or a named constant whose value is one. */
export function isLiteral(n: unknown): boolean {
  if (!isNode(n)) return false;
  if (n.meta.alternate !== undefined) return isLiteral(n.meta.alternate);
  return n.op === 'value';
}

/** The value of a constant node (a literal, or a named constant). */
export function constantValue(n: unknown): unknown {
  if (!isNode(n)) return undefined;
  if (n.meta.alternate !== undefined) return constantValue(n.meta.alternate);
  if (n.op === 'value') return n.args;
  const v = negatedLiteral(n);
  return v === undefined ? undefined : -v;
}

/**
 * The number under a minus written on a numeric literal (`-5`, `-2.5`): cel-go's parser reads the
 * pair as one literal, so it is a constant to the cost model (the engine's tree cannot tell `-(5)`
 * from `-5`; both count as the literal); `-x` is an operation.
 */
export function negatedLiteral(n: unknown): number | bigint | undefined {
  if (!isNode(n) || n.op !== '-_') return undefined;
  const a = n.args;
  if (!isNode(a) || a.op !== 'value') return undefined;
  return typeof a.args === 'number' || typeof a.args === 'bigint' ? a.args : undefined;
}

export function orderingCost(l: unknown, r: unknown): number {
  if (
    (typeof l === 'string' && typeof r === 'string') ||
    (l instanceof Uint8Array && r instanceof Uint8Array)
  ) {
    return comparisonCost(l, r);
  }
  return 1;
}

// The string the last `+` produced and its size: `a + ':' + b` then sizes its left operand
// without scanning it (a fresh concatenation is a rope that a scan would first have to flatten).
let lastConcat: string | undefined;
let lastConcatSize = 0;

/** A string's size, known without a scan when the last `+` produced it. */
export function operandSize(s: string): number {
  return s === lastConcat ? lastConcatSize : stringSize(s);
}

/** Remembers the size of what a `+` produced; returns the concatenation's cost. */
export function concatenated(result: unknown, size: number): number {
  if (typeof result === 'string') {
    lastConcat = result;
    lastConcatSize = size;
  }
  return Math.ceil(size * STRING_TRAVERSAL_COST_FACTOR);
}

export function concatCost(l: unknown, r: unknown, result?: unknown): number {
  if (typeof l === 'string' && typeof r === 'string') {
    return concatenated(result, operandSize(l) + operandSize(r));
  }
  if (l instanceof Uint8Array && r instanceof Uint8Array) {
    return Math.ceil((l.length + r.length) * STRING_TRAVERSAL_COST_FACTOR);
  }
  return 1;
}

export function inCost(_l: unknown, r: unknown): number {
  return Array.isArray(r) || r instanceof Set ? valueSize(r) : 1;
}

/** The node's evaluator as the engine would resolve it on first use. */
function resolvedEval(n: Node): Eval {
  const alt = n.meta.alternate;
  if (alt !== undefined) return (ev, _ast, ctx) => alt.evaluate(ev, alt, ctx);
  const macro = n.meta.macro;
  if (macro !== undefined) return (ev, _ast, ctx) => macro.evaluate(ev, macro, ctx);
  return n.meta.evaluate;
}

/** What chargeBefore keeps on a node: its cost and the evaluator it wraps. */
interface Charged {
  costCharge: number;
  costInner: Eval;
}

// One evaluator shared by every charged node (reading its cost and inner evaluator from the node)
// keeps the engine's `ast.evaluate(...)` call sites as monomorphic as they are untracked, where a
// closure per node would make them megamorphic.
function chargedEvaluate(this: unknown, ev: unknown, ast: unknown, ctx: unknown): unknown {
  const n = ast as Node & Charged;
  charge(n.costCharge);
  return n.costInner(ev, ast, ctx);
}

interface HasMacro {
  arg: Node;
}
export function isHas(m: Record<string, unknown>): m is Record<string, unknown> & HasMacro {
  return isNode(m.arg) && m.arg.op === '.';
}

/** The comprehensions library's two-variable macros (library/comprehensions.ts). */
export interface TwoVarMacro {
  kind: string;
  range: Node;
  filter?: Node;
  body: Node;
}
export function isTwoVar(m: Record<string, unknown>): m is Record<string, unknown> & TwoVarMacro {
  return typeof m.kind === 'string' && isNode(m.range) && isNode(m.body);
}

/** Charges `before` when `n` starts and what `after` says of its result (macro parts). */
export function chargeAround(
  n: Node,
  before: number,
  after: ((result: unknown) => number) | undefined,
): void {
  if (after === undefined) {
    chargeBefore(n, before);
    return;
  }
  const inner = resolvedEval(n);
  n.evaluate = function (this: unknown, ev, ast, ctx) {
    charge(before);
    const r = inner.call(this, ev, ast, ctx);
    charge(after(r));
    return r;
  };
}

export function chargeBefore(n: Node, cost: number): void {
  if (cost === 0) return;
  const c = n as Node & Charged;
  c.costInner = resolvedEval(n);
  c.costCharge = cost;
  n.evaluate = chargedEvaluate;
}

// Like chargedEvaluate, the wrappers of operators and calls are single functions that read what
// to run and charge from the node (the engine passes the node to every `handle`), so the engine's
// `ast.handle(...)` call sites stay as monomorphic as they are untracked.

interface ChargedBinary {
  costHandle: Handle;
  costOf: (l: unknown, r: unknown, result: unknown) => number;
}

function chargedBinary(l: unknown, r: unknown, ast: unknown, ev: unknown): unknown {
  const n = ast as Node & ChargedBinary;
  const v = n.costHandle(l, r, ast, ev);
  if (isTracking()) charge(n.costOf(l, r, v));
  return v;
}

/** Charges what `cost` says of the operands once the operator ran; returns what is left to charge before. */
export function chargeAfterBinary(
  n: Node,
  cost: (l: unknown, r: unknown, result: unknown) => number,
): number {
  const h = n.handle;
  if (h === undefined) return 1;
  const c = n as Node & ChargedBinary;
  c.costHandle = h;
  c.costOf = cost;
  n.handle = chargedBinary;
  return 0;
}

interface ChargedCall {
  costHandle: Handle;
  costRuntime: ((args: readonly unknown[], result: unknown) => number) | undefined;
  costFixed: number;
  costNamespaced: boolean;
}

function callCharge(n: Node & ChargedCall, values: unknown[], result: unknown): void {
  let cost = takeReportedCallCost();
  if (cost < 0) {
    const runtime = n.costRuntime;
    cost = runtime === undefined ? n.costFixed : runtime(n.costNamespaced ? values.slice(1) : values, result);
  }
  charge(cost);
}

// `call` nodes pass (values, ast, ev), `rcall` nodes (receiverAndValues, ev, ast).
function chargedCall(values: unknown[], ast: unknown, ev: unknown): unknown {
  const n = ast as Node & ChargedCall;
  takeReportedCallCost();
  const v = n.costHandle(values, ast, ev);
  if (isTracking()) callCharge(n, values, v);
  return v;
}

function chargedMemberCall(values: unknown[], ev: unknown, ast: unknown): unknown {
  const n = ast as Node & ChargedCall;
  takeReportedCallCost();
  const v = n.costHandle(values, ev, ast);
  if (isTracking()) callCharge(n, values, v);
  return v;
}

/** Charges the call once it ran: its hook's report, its rule, or 1; returns what is left to charge before. */
export function chargeAfterCall(n: Node, rule: CallCost | undefined, namespaced: boolean): number {
  const h = n.handle;
  if (h === undefined) return 1;
  const c = n as Node & ChargedCall;
  c.costHandle = h;
  c.costRuntime = rule?.runtime;
  c.costFixed = rule?.constant ?? 1;
  c.costNamespaced = namespaced;
  n.handle = n.op === 'rcall' ? chargedMemberCall : chargedCall;
  return 0;
}
