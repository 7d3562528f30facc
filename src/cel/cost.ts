// Runtime cost tracking. Evaluation is synchronous, so the tracker of the evaluation under way is
// one module-level slot: instrumented AST nodes and library functions charge it, and it throws
// CostLimitExceeded once the budget is spent (evaluate.ts turns that into a 'cost' error).
// The static estimator and upstream's exact per-operation costs come later (issue 27, part 4);
// today every node evaluated costs 1 and a library overload adds what its `cost` hook says.

export class CostLimitExceeded extends Error {
  constructor(readonly limit: number) {
    super('operation cancelled: actual cost limit exceeded');
  }
}

export interface CostTracker {
  cost: number;
  limit: number;
}

let active: CostTracker | undefined;

/** One evaluated node. */
export function chargeNode(): void {
  const t = active;
  if (t !== undefined && ++t.cost > t.limit) throw new CostLimitExceeded(t.limit);
}

/** A library function's own cost (beyond the 1 of its call node). */
export function charge(amount: number): void {
  const t = active;
  if (t === undefined || amount <= 0) return;
  t.cost += amount;
  if (t.cost > t.limit) throw new CostLimitExceeded(t.limit);
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
