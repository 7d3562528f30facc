// RE2 regular expressions: kube-apiserver's documented examples (pkg/cel/library/regex.go, its
// cost tests) and Go's regexp results (error texts, FindAllString's empty-match rule).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { T } from '../types.ts';
import { matchesLibrary, regexLibrary } from './regex.ts';

const env = createEnvironment({
  variables: { s: T.string, p: T.string },
  libraries: [matchesLibrary, regexLibrary],
});

function run(expr: string, s = '', p = '') {
  const c = compile(env, expr);
  if (!c.ok) throw new Error(c.error.message);
  return evaluate(c.program, { s, p });
}
function value(expr: string, s = ''): unknown {
  const r = run(expr, s);
  if (!r.ok) throw new Error(`${expr}: ${r.error.message}`);
  return r.value;
}
/** The run-time error of a pattern given in a variable (a literal one fails the compilation). */
function failure(expr: string, pattern: string): string {
  const r = run(expr, 'a', pattern);
  return r.ok ? `value ${String(r.value)}` : r.error.message;
}

describe('regex library', () => {
  it('find and findAll (upstream’s examples)', () => {
    assert.equal(value(`"abc 123".find('[0-9]+')`), '123');
    assert.equal(value(`"abc 123".find('xyz')`), '');
    assert.deepEqual(value(`"123 abc 456".findAll('[0-9]+')`), ['123', '456']);
    assert.deepEqual(value(`"123 abc 456".findAll('[0-9]+', 1)`), ['123']);
    assert.deepEqual(value(`"123 abc 456".findAll('xyz')`), []);
    assert.equal(value(`'a 1 b 2'.find('[0-9]') == '1'`), true);
  });

  it('findAll skips an empty match right after a match, as Go’s FindAllString', () => {
    assert.deepEqual(value(`"123 abc 456".findAll('[0-9]*')`), ['123', '', '', '', '', '456']);
    assert.deepEqual(value(`"123 abc 456".findAll('[0-9]*', 2)`), ['123', '']);
    assert.deepEqual(value(`"123 abc 456".findAll('[0-9]*', 0)`), []);
    assert.deepEqual(value(`'😀a'.findAll('')`), ['', '', '']);
    assert.deepEqual(value(`'😀a'.findAll('.')`), ['😀', 'a']);
  });

  it('matches searches, with RE2 syntax', () => {
    assert.equal(value(`'hello world'.matches('o w')`), true);
    assert.equal(value(`matches('hello world', '^o w')`), false);
    assert.equal(value(`'ABC'.matches('(?i)^abc$')`), true);
    assert.equal(value(`'abc\\n'.matches('c\\\\z')`), false);
    assert.equal(value(`'αβγ'.matches('^\\\\p{Greek}+$')`), true);
    assert.equal(value(`'ab'.matches('[[:alpha:]]+')`), true);
    assert.equal(value(`s.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')`, 'my-name-01'), true);
    // The engine's own matches used JavaScript's RegExp; \d there is RE2's too, but lookahead is not RE2.
    assert.equal(
      failure(`s.matches(p)`, 'a(?=b)'),
      'error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    );
  });

  it('rejects what RE2 does not have, with Go’s messages', () => {
    assert.equal(failure(`s.matches(p)`, '(abc'), 'error parsing regexp: missing closing ): `(abc`');
    assert.equal(failure(`s.matches(p)`, '(a)\\1'), 'error parsing regexp: invalid escape sequence: `\\1`');
    assert.equal(failure(`s.matches(p)`, '\\Z'), 'error parsing regexp: invalid escape sequence: `\\Z`');
    assert.equal(
      failure(`s.matches(p)`, 'a**'),
      'error parsing regexp: invalid nested repetition operator: `**`',
    );
    assert.equal(
      failure(`s.find(p)`, '[a-'),
      'Illegal regex: error parsing regexp: missing closing ]: `[a-`',
    );
    assert.equal(
      failure(`s.findAll(p)`, 'x{1001}'),
      'Illegal regex: error parsing regexp: invalid repeat count: `{1001}`',
    );
  });

  it('runs in linear time where a backtracking engine would not return', () => {
    assert.equal(value(`s.matches('(a*)*b')`, 'a'.repeat(100_000)), false);
  });

  it('costs length(regex) × length(input): ceil((1 + n) × 0.1) × ceil(m × 0.25)', () => {
    const cost = (expr: string, s: string) => {
      const r = run(expr, s);
      assert.ok(r.ok);
      return r.cost;
    };
    // kube-apiserver 1.35's figures (recorded): 1,000 characters against the 8-character pattern
    // [0-9]{3}: ceil(100.1) × ceil(2) = 202, plus 1 to read s.
    const long = 'x'.repeat(1000);
    assert.equal(cost(`s.matches('[0-9]{3}')`, long), 203);
    assert.equal(cost(`s.find('[0-9]{3}')`, long), 203);
    assert.equal(cost(`s.findAll('[0-9]{3}')`, long), 203);
    assert.equal(cost(`'${long}'.matches('[0-9]{3}')`, ''), 202);
    // cel-go charges the function form (overload id `matches`) 1, whatever the sizes.
    assert.equal(cost(`matches('${long}', '[0-9]{3}')`, ''), 1);
    assert.equal(cost(`s.matches('a+')`, 'dyn str'), 2);
  });
});
