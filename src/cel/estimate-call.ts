// The estimator's rules for calls and operators (cel-go checker/cost.go functionCost, with
// Kubernetes' EstimateCallCost consulted first through cost-table.ts): a call costs its receiver
// and arguments plus what its overload's `estimateCost` hook, upstream's rule for the function, or
// the default 1 says; when the checker could not pick one overload (dyn arguments) the range
// covers every candidate, as cel-go does.

import { overloadOf } from './cost.ts';
import { type CallEstimate, callCost, type EstimateArg, type EstimateCall } from './cost-table.ts';
import {
  addBounds,
  type Bounds,
  STRING_TRAVERSAL_COST_FACTOR as F,
  fixed,
  fromBounds,
  minUint,
  scaleBounds,
  toBounds,
  unionBounds,
  ZERO,
} from './costs.ts';
import type { CelOverload } from './environment.ts';
import { type Estimator, kindOf, type Node } from './estimate.ts';
import { MAX_FORMAT_SIZE } from './limits.ts';

const ONE = fixed(1);

/** What the rules may read of an operand: its size, kind, element and literal value. */
function argInfo(est: Estimator, n: Node): EstimateArg {
  const t = n.checkedType;
  const kind = kindOf(t);
  let elem: EstimateArg['elem'];
  // Like Kubernetes' listElementNode: a list's element or a map's key, sized by declaration only.
  const elemType = t?.kind === 'list' ? t.valueType : t?.kind === 'map' ? t.keyType : undefined;
  if (elemType !== undefined) {
    const path = est.pathOf(n);
    elem = {
      kind: kindOf(elemType),
      size: est.declaredSize(path.length > 0 ? [...path, '@items'] : [], elemType),
    };
  }
  const literal = n.op === 'value' ? n.args : undefined;
  return { size: est.sizeOrUnknown(n), kind, elem, literal };
}

export function estimateCall(est: Estimator, n: Node): Bounds {
  let name: string;
  let target: Node | undefined;
  let args: Node[];
  if (n.op === 'rcall') {
    const [method, receiver, a] = n.args as [string, Node, Node[]];
    const namespaced = receiver.op === 'id' && receiver.meta.alternate !== undefined;
    name = namespaced ? `${receiver.args as string}.${method}` : method;
    target = namespaced ? undefined : receiver;
    args = a;
  } else {
    [name, args] = n.args as [string, Node[]];
  }
  if (target === undefined && name === 'dyn' && args.length === 1) {
    // dyn() only turns type checking off: 1 plus its argument, whose sizes it keeps.
    const c = addBounds(est.cost(args[0]), ONE);
    est.setSize(n, est.knownSize(args[0]));
    est.setEntry(n, est.entryOf(args[0]));
    return c;
  }
  let sum = ZERO;
  for (const a of args) sum = addBounds(sum, est.cost(a));
  if (target !== undefined) sum = addBounds(sum, est.cost(target));
  const call: EstimateCall = {
    target: target && argInfo(est, target),
    args: args.map((a) => argInfo(est, a)),
  };
  let fn: Bounds | undefined;
  let resultSize: Bounds | undefined;
  const rule = callCost(name, target !== undefined);
  const ruled = rule?.estimate?.(call) ?? { cost: fixed(rule?.constant ?? 1) };
  for (const o of candidates(n, target)) {
    // An overload's hook replaces upstream's rule for the cost; the rule still sizes the result
    // when the hook does not.
    const hooked = o === undefined ? undefined : hookEstimate(o, call);
    const e =
      hooked === undefined ? ruled : { cost: hooked.cost, resultSize: hooked.resultSize ?? ruled.resultSize };
    fn = fn === undefined ? e.cost : unionBounds(fn, e.cost);
    if (e.resultSize !== undefined)
      resultSize = resultSize === undefined ? e.resultSize : unionBounds(resultSize, e.resultSize);
  }
  est.setSize(n, resultSize);
  return addBounds(sum, fn ?? ONE);
}

/** The library overloads the call may run (undefined stands for one of the engine's own). */
function candidates(n: Node, target: Node | undefined): (CelOverload | undefined)[] {
  const c = n.candidates;
  if (c === undefined) return [undefined];
  const types = [...(n.argTypes ?? []), target?.checkedType].filter((t) => t !== undefined) as {
    kind?: string;
  }[];
  if (!types.some((t) => t.kind === 'dyn')) {
    try {
      const d = c.findFunction(n.argTypes ?? [], target?.checkedType);
      if (d !== null) return [overloadOf(d.handler)];
    } catch {
      // An ambiguous choice: cover every candidate.
    }
  }
  const all = new Set<CelOverload | undefined>();
  for (const d of c.declarations) all.add(overloadOf(d.handler));
  return all.size > 0 ? [...all] : [undefined];
}

function hookEstimate(o: CelOverload, call: EstimateCall): CallEstimate | undefined {
  if (o.estimateCost === undefined) return undefined;
  const sizes = [...(call.target ? [call.target] : []), ...call.args].map((a) => fromBounds(a.size));
  return {
    cost: toBounds(o.estimateCost(sizes)),
    resultSize: o.estimateResultSize === undefined ? undefined : toBounds(o.estimateResultSize(sizes)),
  };
}

// --- operators ---------------------------------------------------------------------------------------

/** `==`, `!=` and string/bytes ordering: the smaller of the two sizes, a tenth per unit. */
function comparison(l: Bounds, r: Bounds): Bounds {
  const smallest = minUint(l.max, r.max);
  return scaleBounds({ min: smallest > 0n ? 1n : 0n, max: smallest }, F);
}

const SIZED = new Set(['string', 'bytes']);

export function estimateOperator(est: Estimator, n: Node): Bounds {
  const args = Array.isArray(n.args) ? (n.args as Node[]) : [n.args as Node];
  switch (n.op) {
    case '-_':
      // cel-go's parser reads `-5` as one literal.
      if (isNumberLiteral(args[0])) return ZERO;
      return addBounds(sumCosts(est, args), ONE);
    case '!_':
    case '-':
    case '*':
    case '/':
    case '%':
      return addBounds(sumCosts(est, args), ONE);
    case '==':
    case '!=':
      return addBounds(sumCosts(est, args), equality(est, args[0], args[1]));
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const sum = sumCosts(est, args);
      const [kl, kr] = [kindOf(args[0].checkedType), kindOf(args[1].checkedType)];
      if (SIZED.has(kl) && SIZED.has(kr))
        return addBounds(sum, comparison(est.sizeOrUnknown(args[0]), est.sizeOrUnknown(args[1])));
      if (kl === 'dyn' || kr === 'dyn') {
        return addBounds(
          sum,
          unionBounds(ONE, comparison(est.sizeOrUnknown(args[0]), est.sizeOrUnknown(args[1]))),
        );
      }
      return addBounds(sum, ONE);
    }
    case '+':
      return addBounds(sumCosts(est, args), concatenation(est, n, args[0], args[1]));
    case 'in': {
      const sum = sumCosts(est, args);
      const k = kindOf(args[1].checkedType);
      const size = est.sizeOrUnknown(args[1]);
      if (k === 'list') return addBounds(sum, scaleBounds(size, 1));
      if (k === 'dyn') return addBounds(sum, unionBounds(scaleBounds(size, 1), ONE));
      return addBounds(sum, ONE);
    }
    default: {
      // Anything the cost model does not name costs 1 plus its operands.
      let sum = ONE;
      const visit = (x: unknown): void => {
        if (Array.isArray(x)) for (const e of x) visit(e);
        else if (typeof x === 'object' && x !== null && 'op' in x && 'meta' in x)
          sum = addBounds(sum, est.cost(x as Node));
      };
      visit(n.args);
      return sum;
    }
  }
}

export function isNumberLiteral(n: Node): boolean {
  return n.op === 'value' && (typeof n.args === 'number' || typeof n.args === 'bigint');
}

function sumCosts(est: Estimator, nodes: readonly Node[]): Bounds {
  let sum = ZERO;
  for (const a of nodes) sum = addBounds(sum, est.cost(a));
  return sum;
}

/** Kubernetes prices equality of its own value types (library/cost.go `_==_`); cel-go the rest by size. */
function equality(est: Estimator, l: Node, r: Node): Bounds {
  const lt = l.checkedType?.name;
  if (lt !== undefined && lt === r.checkedType?.name && est.libraryTypes.has(lt)) {
    if (lt === 'kubernetes.URL') {
      // Upstream sizes both sides by the right one.
      const size = est.knownSize(r);
      return scaleBounds({ min: 1n, max: size === undefined ? 1n : size.max }, F);
    }
    if (lt === 'kubernetes.NamedFormat') return scaleBounds({ min: 1n, max: BigInt(MAX_FORMAT_SIZE) }, F);
    return ONE;
  }
  return comparison(est.sizeOrUnknown(l), est.sizeOrUnknown(r));
}

function concatenation(est: Estimator, n: Node, l: Node, r: Node): Bounds {
  const [kl, kr] = [kindOf(l.checkedType), kindOf(r.checkedType)];
  const size = addBounds(est.sizeOrUnknown(l), est.sizeOrUnknown(r));
  if (SIZED.has(kl) || SIZED.has(kr)) {
    est.setSize(n, size);
    return scaleBounds(size, F);
  }
  if (kl === 'list' || kr === 'list') {
    est.setSize(n, size);
    const le = est.entryOf(l);
    const re = est.entryOf(r);
    if (le !== undefined && re !== undefined) {
      est.setEntry(n, {
        container: le.container,
        key: unionBounds(le.key, re.key),
        val: unionBounds(le.val, re.val),
      });
    }
    return ONE;
  }
  if (kl === 'dyn' && kr === 'dyn') {
    est.setSize(n, size);
    return unionBounds(ONE, scaleBounds(size, F));
  }
  return ONE;
}
