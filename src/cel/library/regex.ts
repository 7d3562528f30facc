// Regular expressions with RE2's syntax and semantics, as cel-go has them through Go's regexp:
// CEL's standard `matches` (a search, not a full match) and kube-apiserver's `kubernetes.regex`
// library (pkg/cel/library/regex.go): `find` and `findAll` with an optional limit.
//
// The engine is re2js, a pure-JavaScript port of RE2 (through RE2/J, itself ported from Go's
// regexp): the same syntax errors word for word (`error parsing regexp: missing closing ): ...`),
// leftmost-first matching, and Go's FindAllString rules for empty matches. JavaScript's RegExp
// was measured against it and rejected: it backtracks (`(a*)*b` over 28 characters ran 37 s
// here), has lookaround, backreferences and a different `\b`, `\s`, `(?i)`; a translator would
// still leave the backtracking. re2js costs 0.2-1 µs a match on short inputs against 25-40 ns
// for RegExp, linear in the input for any pattern. Patterns are compiled once and kept.
// Costs are upstream's by name (cost-table.ts): ceil((1 + length(input)) × 0.1) ×
// ceil(length(regex) × 0.25) for find, findAll and the method form of matches.

import { RE2JS } from 're2js';
import type { CelLibrary } from '../environment.ts';
import { T } from '../types.ts';
import { callsIn, type LiteralIssue, stringLiteral } from './strings-validate.ts';

/** The compiled form re2js keeps, with Go's method set (match, find, findAll). */
type Compiled = ReturnType<RE2JS['re2']>;

/**
 * Compiled patterns by text, oldest first; a pattern that does not compile keeps its error. A hit
 * is not moved (reordering a Map cost more than the match itself), so the oldest entry goes when
 * the cache is full: constant patterns are looked up on every call, and rarely number thousands.
 */
const cache = new Map<string, Compiled | Error>();
const CACHE_SIZE = 4096;

/** The compiled pattern, or an Error carrying Go's message (`error parsing regexp: ...`). */
export function compileRegex(pattern: string): Compiled | Error {
  let hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  try {
    hit = RE2JS.compile(pattern).re2();
  } catch (err) {
    hit = new Error(err instanceof Error ? err.message : String(err));
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, hit);
  return hit;
}

function compiled(pattern: string, prefix: string): Compiled {
  const re = compileRegex(pattern);
  if (re instanceof Error) throw new Error(prefix + re.message);
  return re;
}

/** `s.matches(re)`: whether the pattern matches anywhere in the string. */
export function matches(s: string, pattern: string): boolean {
  return compiled(pattern, '').match(s);
}

/** `s.find(re)`: the leftmost match, or the empty string. */
export function find(s: string, pattern: string): string {
  return compiled(pattern, 'Illegal regex: ').find(s) ?? '';
}

/** `s.findAll(re, n)`: successive non-overlapping matches, at most n when n >= 0 (Go's FindAllString). */
export function findAll(s: string, pattern: string, n = -1n): string[] {
  const limit = n < 0n ? -1 : n > BigInt(s.length + 1) ? s.length + 1 : Number(n);
  return compiled(pattern, 'Illegal regex: ').findAll(s, limit) ?? [];
}

/**
 * CEL's standard `matches` with RE2 semantics, both as a function and as a method (overload ids
 * `matches` and `matches_string`). It replaces the engine's own, which uses JavaScript's RegExp.
 * cel-go charges by size only the method (`matches_string`); the function costs 1 a call.
 */
export const matchesLibrary: CelLibrary = {
  name: 'cel.lib.std.matches',
  functions: [
    {
      name: 'matches',
      overloads: [
        { id: 'matches', params: [T.string, T.string], result: T.bool, impl: matches },
        { id: 'matches_string', receiver: T.string, params: [T.string], result: T.bool, impl: matches },
      ],
    },
  ],
  language: { validate: (ast) => validateRegexLiterals(ast, MATCHES) },
};

/** kube-apiserver's `kubernetes.regex` library: find and findAll. */
export const regexLibrary: CelLibrary = {
  name: 'kubernetes.regex',
  functions: [
    {
      name: 'find',
      overloads: [
        { id: 'string_find_string', receiver: T.string, params: [T.string], result: T.string, impl: find },
      ],
    },
    {
      name: 'findAll',
      overloads: [
        {
          id: 'string_find_all_string',
          receiver: T.string,
          params: [T.string],
          result: T.list(T.string),
          impl: (s: string, p: string) => findAll(s, p),
        },
        {
          id: 'string_find_all_string_int',
          receiver: T.string,
          params: [T.string, T.int],
          result: T.list(T.string),
          impl: findAll,
        },
      ],
    },
  ],
  language: { validate: (ast) => validateRegexLiterals(ast, FIND) },
};

const REGEX_FUNCTIONS: ReadonlySet<string> = new Set(['matches', 'find', 'findAll']);
const MATCHES: ReadonlySet<string> = new Set(['matches']);
const FIND: ReadonlySet<string> = new Set(['find', 'findAll']);

/**
 * Constant patterns checked at compile time as kube-apiserver does: cel-go's regex literal
 * validator (1.29+) rejects a literal first argument of `matches` that does not compile ("invalid
 * matches argument", at the literal; for the function form that is the string, not the pattern,
 * as upstream has it), and with OptOptimize a constant pattern of `matches`, `find` or `findAll`
 * that does not compile fails the program's construction with RE2's message.
 */
export function validateRegexLiterals(
  ast: unknown,
  names: ReadonlySet<string> = REGEX_FUNCTIONS,
): LiteralIssue | undefined {
  let program: LiteralIssue | undefined;
  for (const c of callsIn(ast)) {
    if (!names.has(c.name)) continue;
    if (c.name === 'matches') {
      const first = c.args[0];
      const literal = stringLiteral(first);
      if (literal !== undefined && compileRegex(literal) instanceof Error) {
        return { offset: first.start, reason: 'invalid matches argument', phase: 'check' };
      }
    }
    // The pattern is the second argument counting the receiver.
    const patternNode = c.receiver !== undefined ? c.args[0] : c.args[1];
    const pattern = stringLiteral(patternNode);
    if (program === undefined && pattern !== undefined) {
      const re = compileRegex(pattern);
      if (re instanceof Error) program = { offset: patternNode.start, reason: re.message, phase: 'program' };
    }
  }
  return program;
}
