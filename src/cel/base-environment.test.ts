// kube-apiserver 1.35's base environment (pkg/cel/environment/base.go at v0.35.0): its library
// list and versions, and one expression per library written so far, from upstream's tests and
// documentation (results recorded from k8s.io/apiserver v0.35.0's MustBaseEnvSet(1.35)).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_CEL_LIBRARIES, BASE_LIBRARIES, baseEnvironment } from './base-environment.ts';
import { compile } from './compile.ts';
import { evaluate } from './evaluate.ts';
import { T } from './types.ts';

const env = baseEnvironment({ variables: { s: T.string, xs: T.list(T.int) } });

function value(expr: string, activation: Record<string, unknown> = {}): unknown {
  const c = compile(env, expr);
  if (!c.ok) throw new Error(c.error.message);
  const r = evaluate(c.program, { s: '', xs: [], ...activation });
  if (!r.ok) throw new Error(`${expr}: ${r.error.message}`);
  return r.value;
}

describe('base environment', () => {
  it('lists base.go’s libraries with the versions that introduced them', () => {
    const rows = BASE_LIBRARIES.map((b) => `${b.name}@${b.introduced}`);
    assert.deepEqual(rows, [
      'kubernetes.urls@1.0',
      'kubernetes.regex@1.0',
      'cel.lib.std.matches@1.0',
      'kubernetes.lists@1.0',
      'kubernetes.authz@1.27',
      'cel.lib.optional@1.28',
      'kubernetes.quantity@1.28',
      'cel.lib.ext.strings@1.29',
      'cel.lib.ext.sets@1.29',
      'kubernetes.net.ip@1.30',
      'kubernetes.net.cidr@1.30',
      'kubernetes.format@1.31',
      'kubernetes.authzSelectors@1.31',
      'cel.lib.ext.comprev2@1.32',
      'kubernetes.Semver@1.33',
      'cel.lib.ext.lists@1.34',
    ]);
    // 1.35 compiles new expressions at compatibility version 1.34: every one of them is on.
    assert.ok(BASE_LIBRARIES.every((b) => b.newExpressions));
    assert.ok(BASE_CEL_LIBRARIES.length > 0);
  });

  it('has each library written so far', () => {
    assert.equal(value("'a 1 b 2'.find('[0-9]') == '1'"), true); // regex
    assert.equal(value('[1, 2, 3].indexOf(2) == 1'), true); // lists
    assert.equal(value("'abc'.contains('bc')"), true);
    assert.equal(value("'TacoCat'.lowerAscii()"), 'tacocat'); // strings
    assert.equal(value("'%e'.format([2.5])"), '2.500000×10⁰⁰'); // strings at version 2
    assert.equal(value('sets.contains([1, 2, 3, 4], [2, 3])'), true); // sets
    assert.equal(value('optional.of(1).orValue(2)'), 1n); // optionals
    assert.equal(value('[1, 2].all(i, v, v > i)'), true); // two-variable comprehensions
    assert.equal(value("s.matches('^[a-z]+$')", { s: 'abc' }), true);
    assert.equal(value("quantity('1Gi').isGreaterThan(quantity('1G'))"), true); // quantity
    assert.equal(value("isURL('http://example.com')"), true); // urls
    assert.equal(value("url('https://example.com:80/path?query=val').getHost()"), 'example.com:80');
    assert.equal(value("ip('127.0.0.1').isLoopback()"), true); // ip
    assert.equal(value("cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))"), true); // cidr
    assert.equal(value("semver('1.2.3').major()"), 1n); // semver
    assert.equal(value("format.dns1123Label().validate('my-name').hasValue()"), false); // format
    assert.equal(value("format.named('dns1123Label').value().validate('MyName').hasValue()"), true);
  });

  it('keeps version 2 of the strings library: no reverse', () => {
    assert.equal(compile(env, "'abc'.reverse()").ok, false);
  });
});

describe('compile-time checks of the base environment', () => {
  const check = (expr: string) => {
    const c = compile(env, expr);
    return c.ok ? 'ok' : `${c.error.line}:${c.error.column}: ${c.error.reason}`;
  };

  it('homogeneous literals: the first element of another type, as kube-apiserver 1.35 reports it', () => {
    assert.equal(check('[1, "a"]'), "1:5: expected type 'int' but found 'string'");
    assert.equal(check('[[1], ["a"]]'), "1:7: expected type 'list(int)' but found 'list(string)'");
    assert.equal(check('{"a": 1, "b": "c"}'), "1:15: expected type 'int' but found 'string'");
    assert.equal(check('[1, dyn("a")]'), "1:8: expected type 'int' but found 'dyn'");
    assert.equal(check('[dyn(1), "a"]'), "1:10: expected type 'dyn' but found 'string'");
    assert.equal(check('size([1, 2.0]) == 2'), "1:10: expected type 'int' but found 'double'");
  });

  it('homogeneous literals: format calls may mix; an optional entry counts by its value type', () => {
    assert.equal(check('"%s %d".format(["a", 1])'), 'ok');
    assert.equal(check('"%s".format([[1, "a"]])'), 'ok');
    assert.equal(check('[?optional.of(1), 2]'), 'ok');
    assert.equal(check('[1, 2, 3]'), 'ok');
    const loose = baseEnvironment({ variables: {}, homogeneousAggregateLiterals: false });
    assert.ok(compile(loose, '[1, "a"]').ok);
  });

  it('literal format strings and regular expressions', () => {
    assert.equal(
      check(`"%d".format(['a'])`),
      '1:14: error during formatting: decimal clause can only be used on integers, was given string',
    );
    assert.equal(check(`'a'.matches('(abc')`), '1:13: invalid matches argument');
    assert.equal(check(`'a'.find('(x')`), '1:10: error parsing regexp: missing closing ): `(x`');
    assert.equal(check(`s.matches('^[a-z]+$') && s.find('[0-9]+') == ''`), 'ok');
    assert.equal(check(`duration('xyz')`), '1:10: invalid duration argument');
    assert.equal(check(`timestamp('bad')`), '1:11: invalid timestamp argument');
    assert.equal(
      check(`duration('1h') < duration('2h') && timestamp('2023-01-01T00:00:00Z') != timestamp(0)`),
      'ok',
    );
  });

  it('reads like upstream’s message', () => {
    const c = compile(env, '[1, "a"]');
    assert.ok(!c.ok);
    assert.equal(
      c.error.message,
      "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, \"a\"]\n | ....^",
    );
  });
});
