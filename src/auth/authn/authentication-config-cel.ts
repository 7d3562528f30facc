// CEL for JWT authenticators: `claims` (map(string, dyn)) in claim mappings and claim validation
// rules, `user` (username, uid, groups, extra) in user validation rules, each in an environment of
// its own as upstream keeps them. Expressions compile when the configuration loads; a token
// evaluates them under upstream's per-call cost limit, and any evaluation error refuses the token.

import {
  type CelType,
  compile,
  createEnvironment,
  type Environment,
  evaluate,
  fromJson,
  PER_CALL_LIMIT,
  type Program,
  T,
} from '../../cel/index.ts';
import { listsLibrary } from '../../cel/library/lists.ts';

/**
 * Upstream's cost limit for one evaluation of a stored expression (apiserver cel PerCallLimit),
 * which authentication expressions get from the base environment.
 */
export const AUTHN_CEL_COST_LIMIT = PER_CALL_LIMIT;

/** Upstream's declaration of `user` (authentication/cel: kubernetes.UserInfo). */
const USER_TYPE: CelType = T.object('kubernetes.UserInfo', {
  username: T.string,
  uid: T.string,
  groups: T.list(T.string),
  extra: T.map(T.string, T.list(T.string)),
});

let claimsEnv: Environment | undefined;
let userEnv: Environment | undefined;

function environment(variable: 'claims' | 'user'): Environment {
  if (variable === 'claims') {
    claimsEnv ??= createEnvironment({
      variables: { claims: T.map(T.string, T.dyn) },
      libraries: [listsLibrary],
      limits: { costLimit: AUTHN_CEL_COST_LIMIT },
    });
    return claimsEnv;
  }
  userEnv ??= createEnvironment({
    variables: { user: USER_TYPE },
    libraries: [listsLibrary],
    limits: { costLimit: AUTHN_CEL_COST_LIMIT },
  });
  return userEnv;
}

export type CompiledExpression = { ok: true; program: Program } | { ok: false; detail: string };

/**
 * Compiles against `claims` or `user`. A validation rule must be typed bool exactly (a dyn result
 * such as `claims.email_verified` is refused, as upstream refuses it); mappings may be anything.
 */
export function compileAuthnExpression(
  variable: 'claims' | 'user',
  expression: string,
  wantBool: boolean,
): CompiledExpression {
  const r = compile(environment(variable), expression);
  if (!r.ok) return { ok: false, detail: r.error.message };
  if (wantBool && r.program.resultType !== 'bool') return { ok: false, detail: 'must evaluate to bool' };
  return { ok: true, program: r.program };
}

export type Evaluated = { ok: true; value: unknown } | { ok: false; error: string };

/** Evaluates with upstream's wording for a failure: `expression '<e>' resulted in error: <why>`. */
export function evaluateAuthnExpression(program: Program, activation: Record<string, unknown>): Evaluated {
  const r = evaluate(program, activation, { costLimit: AUTHN_CEL_COST_LIMIT });
  if (r.ok) return { ok: true, value: r.value };
  return { ok: false, error: `expression '${program.expression}' resulted in error: ${r.error.message}` };
}

/** Claims as CEL sees them: integral numbers become ints. Converted once per token. */
export function claimsActivation(claims: Record<string, unknown>): Record<string, unknown> {
  return { claims: fromJson(claims) };
}

/**
 * Whether an expression selects `claims.<field>` (or `claims.?<field>`), which is what upstream
 * looks for in the checked expression when it enforces the email_verified rule. Read from the
 * text with string literals skipped, which finds the same selections.
 */
export function selectsClaim(expression: string, field: string): boolean {
  const code = withoutStringLiterals(expression);
  // The character before `claims` keeps `x.claims.email` (a field of something else) out.
  const re = new RegExp(`[^A-Za-z0-9_.\\s]\\s*claims\\s*\\.\\s*\\??\\s*${field}(?![A-Za-z0-9_])`);
  return re.test(`(${code}`);
}

/** The expression with the contents of every string and bytes literal blanked. */
function withoutStringLiterals(s: string): string {
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '"' || c === "'") {
      const raw = i > 0 && /[rR]/.test(s[i - 1]) && (i < 2 || !/[A-Za-z0-9_]/.test(s[i - 2]));
      const triple = s.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < s.length && !s.startsWith(quote, j)) j += !raw && s[j] === '\\' ? 2 : 1;
      out += `""`;
      i = j + quote.length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
