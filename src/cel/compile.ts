// Parse and type-check an expression against an environment. Errors read like cel-go's, which is
// what upstream's apiserver shows users:
//   compilation failed: ERROR: <input>:1:5: undeclared reference to 'x' (in container '')
//    | 1 + x
//    | ....^

import { hookedFunctions, instrumentCost } from './cost-instrument.ts';
import { celGoTypeName, engineErrorDetail, engineType, normalEngineType } from './engine.ts';
import { type Environment, parseExpression } from './environment.ts';
import { estimateAst } from './estimate.ts';
import { costExceedsBudgetMessage } from './limits.ts';
import { type CelType, typeName } from './types.ts';

export interface CompileOptions {
  /** Accepted result types; a result of another type is a compile error. dyn results pass. */
  expected?: readonly CelType[];
  /** Overrides the environment's maxExpressionLength. */
  maxLength?: number;
  /**
   * Refuse the expression when its estimated worst-case cost (estimate.ts, with the environment's
   * declared sizes) is more than this: STATIC_ESTIMATED_COST_LIMIT for a CRD rule,
   * CEL_SELECTOR_EXPRESSION_MAX_COST for a DRA selector (limits.ts).
   */
  costLimit?: number;
  /** What the refusal calls the cost: upstream's `estimated rule cost` unless given. */
  costName?: string;
}

export interface Program {
  readonly env: Environment;
  readonly expression: string;
  /** The checked result type, as cel-go spells it (`bool`, `list(string)`, `dyn`). */
  readonly resultType: string;
  /** The parsed and checked AST, for the static cost estimator. Engine-specific; read through engine.ts. */
  readonly ast: unknown;
  /** @internal evaluates the program; evaluate.ts wraps it. */
  readonly run: (activation: Record<string, unknown>) => unknown;
  /** @internal the cost every evaluation has before its first branch; evaluate.ts charges it first. */
  readonly entryCost: number;
}

export interface CompileError {
  /** The whole message, `compilation failed: ERROR: <input>:L:C: ...` with the source excerpt. */
  message: string;
  /** The bare reason (`undeclared reference to 'x' (in container '')`). */
  reason: string;
  line: number;
  column: number;
  /** Set when the expression was refused for its estimated cost (callers word their own errors from it). */
  cost?: { min: number; max: number; limit: number };
}

export type CompileResult = { ok: true; program: Program } | { ok: false; error: CompileError };

export function compile(env: Environment, expression: string, options: CompileOptions = {}): CompileResult {
  const maxLength = options.maxLength ?? env.limits.maxExpressionLength;
  if (maxLength > 0 && expression.length > maxLength) {
    return fail(
      expression,
      0,
      `expression of ${expression.length} characters exceeds the limit of ${maxLength}`,
    );
  }
  let parsed: ReturnType<Environment['engine']['parse']>;
  try {
    parsed = parseExpression(env, expression);
  } catch (err) {
    const d = engineErrorDetail(err);
    return fail(expression, d.start ?? 0, `Syntax error: ${lowerFirst(d.summary)}`);
  }
  let checked: ReturnType<typeof parsed.check>;
  try {
    checked = parsed.check();
  } catch (err) {
    checked = { valid: false, error: err as Error } as ReturnType<typeof parsed.check>;
  }
  if (!checked.valid) {
    const d = engineErrorDetail(checked.error);
    return fail(expression, d.start ?? 0, checkReason(d.code, d.summary));
  }
  // cel-go's AST validators run as part of compiling, before a caller looks at the result type.
  for (const lib of env.libraries) {
    const issue = lib.language?.validate?.(parsed.ast, expression, env);
    if (issue !== undefined) return fail(expression, issue.offset, issue.reason);
  }
  const got = normalEngineType(checked.type ?? 'dyn');
  if (options.expected !== undefined && options.expected.length > 0 && got !== 'dyn') {
    const ok = options.expected.some((t) => normalEngineType(engineType(t)) === got);
    if (!ok) {
      const want = options.expected.map(typeName).join(' or ');
      return fail(expression, 0, `expression must evaluate to ${want}, got ${celGoTypeName(got)}`);
    }
  }
  if (options.costLimit !== undefined) {
    const estimate = estimateAst(env, parsed.ast);
    if (estimate.max > BigInt(Math.floor(options.costLimit))) {
      const cost = { min: Number(estimate.min), max: Number(estimate.max), limit: options.costLimit };
      const reason = costExceedsBudgetMessage(
        options.costName ?? 'estimated rule cost',
        cost.max,
        cost.limit,
      );
      const failed = fail(expression, 0, reason);
      return { ok: false, error: { ...failed.error, cost } };
    }
  }
  const entryCost = env.trackCost
    ? instrumentCost(parsed.ast, { hooked: hookedFunctions(env.libraries), optimize: env.optimize })
    : 0;
  const program: Program = Object.freeze({
    env,
    expression,
    resultType: celGoTypeName(got),
    ast: parsed.ast,
    run: parsed as (activation: Record<string, unknown>) => unknown,
    entryCost,
  });
  return { ok: true, program };
}

function lowerFirst(s: string): string {
  return s.length > 0 ? s[0].toLowerCase() + s.slice(1) : s;
}

/** cel-go's wording for the checker's findings the engine reports in its own words. */
function checkReason(code: string, summary: string): string {
  switch (code) {
    case 'unknown_variable':
      return `undeclared reference to '${summary.replace(/^Unknown variable: /, '')}' (in container '')`;
    case 'no_such_key':
      return `undefined field '${summary.replace(/^No such key: /, '')}'`;
    case 'no_such_overload': {
      const m = /^no such overload: (\S+) (\S+) (\S+)$/.exec(summary);
      if (m)
        return `found no matching overload for '_${m[2]}_' applied to '(${celGoTypeName(m[1])}, ${celGoTypeName(m[3])})'`;
      return summary;
    }
    default:
      return lowerFirst(summary);
  }
}

function fail(expression: string, offset: number, reason: string): { ok: false; error: CompileError } {
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = offset - lineStart + 1;
  const sourceLine = expression.slice(lineStart).split('\n')[0];
  const caret = `${'.'.repeat(column - 1)}^`;
  const message = `compilation failed: ERROR: <input>:${line}:${column}: ${reason}\n | ${sourceLine}\n | ${caret}`;
  return { ok: false, error: { message, reason, line, column } };
}
