// Evaluate a compiled program. Never throws: the result is a value with its cost, or an error
// value whose message reads like cel-go's (`division by zero`, `no such key: x`,
// `return error for overflow`) and whose kind says whether the budget ran out: 'cost' for this
// evaluation's limit, 'budget' for the total of a request (CostBudget).

import type { Program } from './compile.ts';
import { type CostBudget, CostLimitExceeded, type CostTracker, withTracker } from './cost.ts';
import { engineErrorDetail } from './engine.ts';
import { COST_LIMIT_EXCEEDED_MESSAGE, OUT_OF_BUDGET_MESSAGE } from './limits.ts';

export interface EvaluateOptions {
  /** Runtime cost limit of this evaluation (PER_CALL_LIMIT upstream); defaults to the environment's. */
  costLimit?: number;
  /**
   * The total of several evaluations (one object's rules, one binding's expressions): this
   * evaluation's cost is taken from it, and once it is spent this and every later evaluation
   * fail with OUT_OF_BUDGET_MESSAGE (kind 'budget'), as upstream stops running rules.
   */
  budget?: CostBudget;
}

export type EvalResult =
  | { ok: true; value: unknown; cost: number }
  | { ok: false; error: { message: string; kind: 'runtime' | 'cost' | 'budget' }; cost: number };

export function evaluate(
  program: Program,
  activation: Record<string, unknown>,
  options: EvaluateOptions = {},
): EvalResult {
  const budget = options.budget;
  if (budget === undefined) return evaluateOnce(program, activation, options);
  if (budget.exhausted)
    return { ok: false, error: { message: OUT_OF_BUDGET_MESSAGE, kind: 'budget' }, cost: 0 };
  const r = evaluateOnce(program, activation, options);
  // Upstream checks the total before the evaluation's own error, so running out wins.
  if (!budget.take(r.cost))
    return { ok: false, error: { message: OUT_OF_BUDGET_MESSAGE, kind: 'budget' }, cost: r.cost };
  return r;
}

function evaluateOnce(
  program: Program,
  activation: Record<string, unknown>,
  options: EvaluateOptions,
): EvalResult {
  const tracker: CostTracker | undefined = program.env.trackCost
    ? { cost: program.entryCost, limit: options.costLimit ?? program.env.limits.costLimit }
    : undefined;
  if (tracker !== undefined && tracker.cost > tracker.limit) return costError(tracker.cost);
  try {
    const value = withTracker(tracker, () => program.run(activation));
    const cost = tracker?.cost ?? 0;
    // A budget error inside `||`, `&&` or a macro can be absorbed by the other branch; the budget
    // was still spent, so the evaluation still fails.
    if (tracker !== undefined && cost > tracker.limit) return costError(cost);
    if (value instanceof Promise) {
      value.catch(() => {});
      return {
        ok: false,
        error: { message: 'asynchronous functions are not supported', kind: 'runtime' },
        cost,
      };
    }
    return { ok: true, value, cost };
  } catch (err) {
    const cost = tracker?.cost ?? 0;
    if (
      err instanceof CostLimitExceeded ||
      (err instanceof Error && err.cause instanceof CostLimitExceeded)
    ) {
      return costError(cost);
    }
    return { ok: false, error: { message: runtimeMessage(err), kind: 'runtime' }, cost };
  }
}

function costError(cost: number): EvalResult {
  return {
    ok: false,
    error: { message: COST_LIMIT_EXCEEDED_MESSAGE, kind: 'cost' },
    cost,
  };
}

/** cel-go's wording for the engine's runtime errors. */
function runtimeMessage(err: unknown): string {
  const d = engineErrorDetail(err);
  switch (d.code) {
    case 'division_by_zero':
      return 'division by zero';
    case 'modulo_by_zero':
      return 'modulus by zero';
    case 'numeric_overflow':
      return d.summary.includes('conversion') || d.summary.includes('()')
        ? 'range error'
        : 'return error for overflow';
    case 'no_such_key':
      return `no such key: ${d.summary.replace(/^No such key: /, '')}`;
    case 'index_out_of_range':
      return d.summary.replace(/^Index out of range/i, 'index out of bounds');
    case 'no_such_overload':
      return d.summary.replace(/^no such overload/, 'no such overload');
    case 'optional_value_missing':
      return 'optional.none() dereference';
    default:
      return d.summary;
  }
}
