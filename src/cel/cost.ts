// Runtime cost tracking. Evaluation is synchronous, so the tracker of the evaluation under way is
// one module-level slot: the instrumented AST (cost-instrument.ts) charges it with upstream's
// per-operation costs, and it throws CostLimitExceeded once the per-call limit is passed
// (evaluate.ts turns that into a 'cost' error). A CostBudget spans the several evaluations of one
// request (all rules of one custom resource, the expressions of one policy binding): each
// evaluation's cost is taken from it afterwards, as upstream does.

import type { CelImpl, CelOverload } from './environment.ts';
import { COST_LIMIT_EXCEEDED_MESSAGE } from './limits.ts';

export class CostLimitExceeded extends Error {
  constructor(readonly limit: number) {
    super(COST_LIMIT_EXCEEDED_MESSAGE);
  }
}

export interface CostTracker {
  cost: number;
  limit: number;
}

let active: CostTracker | undefined;

/** Adds `amount` to the evaluation under way (no-op when none is tracked). */
export function charge(amount: number): void {
  const t = active;
  if (t === undefined) return;
  t.cost += amount;
  if (t.cost > t.limit) throw new CostLimitExceeded(t.limit);
}

/** Whether an evaluation under way is tracked (a cost hook need not run otherwise). */
export function isTracking(): boolean {
  return active !== undefined;
}

/** Runs `fn` with `tracker` as the active tracker (restoring the previous one: nesting is safe). */
export function withTracker<R>(tracker: CostTracker | undefined, fn: () => R): R {
  const previous = active;
  active = tracker;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

// A library overload's own `cost` hook reports the cost of the call it just ran here; the
// instrumented call node picks it up (instead of the by-name table) right after the call returns.
let reported = -1;

export function reportCallCost(cost: number): void {
  reported = cost;
}

/** The cost a hook reported since the last call, or -1. Clears it. */
export function takeReportedCallCost(): number {
  const c = reported;
  reported = -1;
  return c;
}

// The estimator finds a call's overload through the handler the engine holds.
const overloads = new WeakMap<CelImpl, CelOverload>();

export function noteOverload(handler: CelImpl, overload: CelOverload): void {
  overloads.set(handler, overload);
}

export function overloadOf(handler: unknown): CelOverload | undefined {
  return typeof handler === 'function' ? overloads.get(handler as CelImpl) : undefined;
}

/**
 * A total runtime budget shared by several evaluations (upstream: RUNTIME_CEL_COST_BUDGET per
 * custom resource or policy binding, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS per webhook). Pass
 * the same object to each `evaluate` of the request; once an evaluation's cost is more than what
 * remains, that evaluation and every later one fail with OUT_OF_BUDGET_MESSAGE.
 */
export class CostBudget {
  #remaining: number;

  constructor(readonly total: number) {
    if (!(total >= 0)) throw new RangeError(`a cost budget must be at least 0, got ${total}`);
    this.#remaining = total;
  }

  /** What is left (0 once exhausted). */
  get remaining(): number {
    return Math.max(0, this.#remaining);
  }

  get spent(): number {
    return this.total - this.#remaining;
  }

  get exhausted(): boolean {
    return this.#remaining < 0;
  }

  /** Takes one evaluation's cost; false when it was more than what remained. */
  take(cost: number): boolean {
    const ok = cost <= this.#remaining;
    this.#remaining -= cost;
    return ok;
  }
}
