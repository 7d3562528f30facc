// The compile-evaluate-assert helpers every CEL library test needs: compile against one
// environment, evaluate with the test's variables, and read the value, the error message or the
// runtime cost. One copy here, so the library tests hold only their upstream examples.
import assert from 'node:assert/strict';
import { compile } from '../compile.ts';
import type { Environment } from '../environment.ts';
import { type EvalResult, evaluate } from '../evaluate.ts';

export interface Evaluator {
  /** Compiles (throwing the compile error) and evaluates; `vars` are merged over the defaults. */
  run(expr: string, vars?: Record<string, unknown>): EvalResult;
  /** The value; throws with the compile or evaluation error. */
  value(expr: string, vars?: Record<string, unknown>): unknown;
  /** The compile error's message, else the evaluation error's, else `value <v>`. */
  failure(expr: string, vars?: Record<string, unknown>): string;
  /** Asserts each expression compiles and costs what upstream charges for it at run time. */
  assertCosts(facts: readonly (readonly [string, number])[], vars?: Record<string, unknown>): void;
}

export function evaluator(env: Environment, defaults: Record<string, unknown> = {}): Evaluator {
  const activation = (vars?: Record<string, unknown>) =>
    vars === undefined ? defaults : { ...defaults, ...vars };
  const run = (expr: string, vars?: Record<string, unknown>): EvalResult => {
    const c = compile(env, expr);
    if (!c.ok) throw new Error(c.error.message);
    return evaluate(c.program, activation(vars));
  };
  return {
    run,
    value(expr, vars) {
      const r = run(expr, vars);
      if (!r.ok) throw new Error(`${expr}: ${r.error.message}`);
      return r.value;
    },
    failure(expr, vars) {
      const c = compile(env, expr);
      if (!c.ok) return c.error.message;
      const r = evaluate(c.program, activation(vars));
      return r.ok ? `value ${String(r.value)}` : r.error.message;
    },
    assertCosts(facts, vars) {
      for (const [expr, want] of facts) {
        const c = compile(env, expr);
        assert.ok(c.ok, expr);
        assert.equal(evaluate(c.program, activation(vars)).cost, want, expr);
      }
    },
  };
}
