// Compile-time checks of literal format strings and regular expressions. Reasons and columns are
// kube-apiserver 1.35's (k8s.io/apiserver v0.35.0, MustBaseEnvSet(1.35), recorded): the column in
// `ERROR: <input>:1:C:` is the offset here plus one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { type CelLibrary, createEnvironment } from '../environment.ts';
import { T } from '../types.ts';
import { matchesLibrary, regexLibrary, validateRegexLiterals } from './regex.ts';
import { KUBE_STRINGS_VERSION, stringsLibrary } from './strings.ts';
import { type LiteralIssue, validateFormatCalls } from './strings-validate.ts';

/** The libraries without their validate hooks, to get checked ASTs of the expressions they reject. */
const unvalidated = (l: CelLibrary): CelLibrary => ({ ...l, language: undefined });
const env = createEnvironment({
  variables: { s: T.string, d: T.dyn },
  libraries: [stringsLibrary(KUBE_STRINGS_VERSION), matchesLibrary, regexLibrary].map(unvalidated),
});

function checked(expr: string): unknown {
  const c = compile(env, expr);
  if (!c.ok) throw new Error(c.error.message);
  return c.program.ast;
}
const format = (expr: string) => validateFormatCalls(checked(expr), expr, KUBE_STRINGS_VERSION);
const regex = (expr: string) => validateRegexLiterals(checked(expr));
const at = (column: number, reason: string, phase: LiteralIssue['phase'] = 'check'): LiteralIssue => ({
  offset: column - 1,
  reason,
  phase,
});

describe('format validator (strings version 2)', () => {
  it('checks each clause against its argument’s type', () => {
    assert.deepEqual(
      format(`"%d".format(['a'])`),
      at(14, 'error during formatting: decimal clause can only be used on integers, was given string'),
    );
    assert.deepEqual(
      format(`"%d".format([string(1)])`),
      at(20, 'error during formatting: decimal clause can only be used on integers, was given string'),
    );
    assert.deepEqual(
      format(`"%d".format([s + s])`),
      at(16, 'error during formatting: decimal clause can only be used on integers, was given string'),
    );
    assert.deepEqual(
      format(`"%d".format([1 == 1 ? "a" : "b"])`),
      at(21, 'error during formatting: decimal clause can only be used on integers, was given string'),
    );
    assert.deepEqual(
      format(`"%d".format([[1]])`),
      at(14, 'error during formatting: decimal clause can only be used on integers, was given list'),
    );
    assert.deepEqual(
      format(`"%s".format([[1, optional.of(1)]])`),
      at(
        29,
        'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type',
      ),
    );
  });

  it('counts the arguments and parses the clauses', () => {
    assert.deepEqual(format(`"%s %s".format(['a'])`), at(15, 'index 1 out of range'));
    assert.deepEqual(
      format(`"%s %s".format(["a", "b", "c"])`),
      at(15, 'too many arguments supplied to string.format (expected 2, got 3)'),
    );
    assert.deepEqual(
      format(`"%a".format([1])`),
      at(12, 'could not parse formatting clause: unrecognized formatting clause "a"'),
    );
  });

  it('leaves what is not a literal to run time', () => {
    assert.equal(format(`s.format(['a'])`), undefined);
    assert.equal(format(`"%d".format([d])`), undefined);
    assert.equal(format(`"%d".format(s.split(''))`), undefined);
    assert.equal(format(`"%s and %d".format(['a', 1])`), undefined);
  });
});

describe('through compile', () => {
  it('fails the compilation where kube-apiserver does', () => {
    const strict = createEnvironment({
      variables: { s: T.string },
      libraries: [stringsLibrary(KUBE_STRINGS_VERSION), matchesLibrary, regexLibrary],
    });
    const reason = (expr: string) => {
      const c = compile(strict, expr);
      return c.ok ? 'ok' : `${c.error.column}: ${c.error.reason}`;
    };
    assert.equal(reason(`"%s %s".format(['a'])`), '15: index 1 out of range');
    assert.equal(reason(`s.matches('(abc')`), '11: invalid matches argument');
    assert.equal(reason(`s.findAll('(x', 1)`), '11: error parsing regexp: missing closing ): `(x`');
    assert.equal(reason(`s.format(['a']) + s.find(s)`), 'ok');
  });
});

describe('regular expression literals', () => {
  it('rejects a literal first argument of matches that does not compile', () => {
    assert.deepEqual(regex(`'a'.matches('(abc')`), at(13, 'invalid matches argument'));
    // cel-go checks the function form's first argument, which is the string (as upstream does).
    assert.deepEqual(regex(`matches('(x', 'a')`), at(9, 'invalid matches argument'));
  });

  it('fails the program for a constant pattern of find, findAll or the function form of matches', () => {
    const missing = 'error parsing regexp: missing closing ): `(x`';
    assert.deepEqual(regex(`matches('a', '(x')`), at(14, missing, 'program'));
    assert.deepEqual(regex(`'a'.find('(x')`), at(10, missing, 'program'));
    assert.deepEqual(regex(`s.findAll('(x', 1)`), at(11, missing, 'program'));
    assert.equal(regex(`s.find(s)`), undefined);
    assert.equal(regex(`s.matches('^[a-z]+$')`), undefined);
  });
});
