// How the conformance runner and the conformance test judge one outcome against a test's
// expectation: undefined when the test passed, otherwise the failure's class. Shared so that the
// measuring tool (conformance.ts) and `npm test` (conformance.test.ts) agree on what passing means.

import { canon, type Norm, type Outcome, type SimpleTest } from './conformance-data.ts';

export type Expectation = Norm | 'error' | 'true' | 'type' | 'unknown';

export function judge(test: SimpleTest, out: Outcome, expected: Expectation): string | undefined {
  if (out.kind === 'unsupported') return `unsupported by API (${out.why})`;
  if (expected === 'unknown') return 'unknown values (partial evaluation) not supported';
  if (out.kind === 'compileError') {
    if (expected === 'error' && test.disableCheck) return undefined;
    const cls = classifyCompileError(out.message);
    // A test written for evaluation without type checking, rejected by a checker (as cel-go's
    // own checker rejects it): a mode the candidate lacks, not a wrong answer.
    return test.disableCheck && cls !== 'parse error' ? `unchecked evaluation only (${cls})` : cls;
  }
  if (expected === 'type') return out.kind === 'type' && out.ok ? undefined : 'inferred result type differs';
  if (expected === 'error') return out.kind === 'error' ? undefined : 'value where an error was expected';
  if (out.kind === 'error') return classifyRuntimeError(out.message);
  if (out.kind !== 'value') return 'no value';
  const want = expected === 'true' ? canon({ t: 'bool', v: true }) : canon(expected);
  return canon(out.value) === want ? undefined : 'wrong value';
}

function classifyCompileError(message: string): string {
  const m = message.toLowerCase();
  if (/syntax|unexpected|expecting|parse|token|invalid .*escape|octal|reserved/.test(m)) return 'parse error';
  if (/unknown variable|undeclared|unknown type|not registered/.test(m))
    return 'type check: unknown identifier or type';
  if (/overload|not defined|no matching|unknown function|found no/.test(m))
    return 'type check: missing function or overload';
  return 'type check: rejected';
}

function classifyRuntimeError(message: string): string {
  const m = message.toLowerCase();
  if (/overload|unbound function|no such function|not defined|unknown function|found no matching/.test(m)) {
    return 'runtime: missing function or overload';
  }
  if (/field|key|property/.test(m)) return 'runtime: field or key access';
  return 'runtime: unexpected error';
}
