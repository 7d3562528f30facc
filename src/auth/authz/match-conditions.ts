// CEL match conditions of an authorization webhook (AuthorizationConfiguration): boolean
// expressions over `request`, the v1 SubjectAccessReview spec the webhook would be sent. They
// compile when the configuration loads (errors reported at their field path); per request, the
// first false one skips the webhook, all true call it, and errors with none false are the
// webhook's failure (its failurePolicy decides), as upstream evaluates them.

import {
  baseEnvironment,
  type CelType,
  compile,
  type Environment,
  evaluate,
  PER_CALL_LIMIT,
  type Program,
  T,
} from '../../cel/index.ts';

/** Upstream's per-call cost limit for stored expressions. */
export const MATCH_CONDITION_COST_LIMIT = PER_CALL_LIMIT;

const SELECTOR_REQUIREMENT: CelType = T.object('kubernetes.SelectorRequirement', {
  key: T.string,
  operator: T.string,
  values: T.list(T.string),
});

/** Upstream's declaration of `request` (authorizer/cel: SubjectAccessReviewSpec). */
const REQUEST_TYPE: CelType = T.object('kubernetes.SubjectAccessReviewSpec', {
  resourceAttributes: T.object('kubernetes.ResourceAttributes', {
    namespace: T.string,
    verb: T.string,
    group: T.string,
    version: T.string,
    resource: T.string,
    subresource: T.string,
    name: T.string,
    fieldSelector: T.object('kubernetes.FieldSelectorAttributes', {
      rawSelector: T.string,
      requirements: T.list(SELECTOR_REQUIREMENT),
    }),
    labelSelector: T.object('kubernetes.LabelSelectorAttributes', {
      rawSelector: T.string,
      requirements: T.list(SELECTOR_REQUIREMENT),
    }),
  }),
  nonResourceAttributes: T.object('kubernetes.NonResourceAttributes', { path: T.string, verb: T.string }),
  user: T.string,
  groups: T.list(T.string),
  extra: T.map(T.string, T.list(T.string)),
  uid: T.string,
});

let env: Environment | undefined;

function environment(): Environment {
  env ??= baseEnvironment({
    variables: { request: REQUEST_TYPE },
    limits: { costLimit: MATCH_CONDITION_COST_LIMIT },
  });
  return env;
}

/** Compiles one condition; the error text is what upstream puts after the expression's field path. */
export function compileMatchCondition(
  expression: string,
): { ok: true; program: Program } | { ok: false; detail: string } {
  const r = compile(environment(), expression);
  if (!r.ok) return { ok: false, detail: r.error.message };
  if (r.program.resultType !== 'bool') {
    return { ok: false, detail: `must evaluate to bool` };
  }
  return { ok: true, program: r.program };
}

/** `erred`: a condition failed to evaluate before another excluded the request (counted as an error). */
export type MatchResult = { matches: boolean; erred?: true } | { error: string };

/** Evaluates compiled conditions against a v1 SubjectAccessReview spec, as upstream's matcher. */
export function evaluateMatchConditions(
  programs: readonly Program[],
  spec: Record<string, unknown>,
): MatchResult {
  const errors: string[] = [];
  const activation = { request: spec };
  for (const p of programs) {
    const r = evaluate(p, activation, { costLimit: MATCH_CONDITION_COST_LIMIT });
    if (!r.ok) {
      errors.push(`cel evaluation error: expression '${p.expression}' resulted in error: ${r.error.message}`);
      continue;
    }
    if (typeof r.value !== 'boolean') {
      errors.push(
        `cel evaluation error: expression '${p.expression}' eval result type should be bool but got ${typeof r.value}`,
      );
      continue;
    }
    if (!r.value) return errors.length > 0 ? { matches: false, erred: true } : { matches: false };
  }
  if (errors.length === 1) return { error: errors[0] };
  if (errors.length > 1) return { error: `[${errors.join(', ')}]` };
  return { matches: true };
}
