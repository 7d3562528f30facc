// Optional types as cel-go documents them (cel/library.go, OptionalTypes) and as the CEL
// conformance file `optionals` pins them; every environment has them (as in kube-apiserver).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { Optional } from '../engine.ts';
import { createEnvironment, type EnvironmentOptions } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { T } from '../types.ts';
import { isZeroValue } from './optionals.ts';

const variables = {
  m: T.map(T.string, T.dyn),
  greeting: T.string,
  x: T.int,
  user: T.object('optionals.User', { name: T.string, groups: T.list(T.string), nick: T.string }),
};
const activation = {
  m: { key: { subkey: 'value' }, empty: {} },
  greeting: 'hello',
  x: 1n,
  user: { name: 'ann', groups: ['a'] },
};
const env = createEnvironment({ variables });

function run(expr: string, opts: Partial<EnvironmentOptions> = {}) {
  const e = Object.keys(opts).length > 0 ? createEnvironment({ variables, ...opts }) : env;
  const c = compile(e, expr);
  if (!c.ok) return { compileError: c.error.message };
  return evaluate(c.program, activation);
}
function value(expr: string, opts: Partial<EnvironmentOptions> = {}): unknown {
  const r = run(expr, opts);
  if ('compileError' in r) throw new Error(r.compileError);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
function failure(expr: string, opts: Partial<EnvironmentOptions> = {}): string {
  const r = run(expr, opts);
  if ('compileError' in r) return r.compileError;
  return r.ok ? `value ${String(r.value)}` : r.error.message;
}
const some = (v: unknown) => {
  assert.ok(v instanceof Optional && v.hasValue(), `expected a present optional, got ${String(v)}`);
  return v.value();
};
const none = (v: unknown) =>
  assert.ok(v instanceof Optional && !v.hasValue(), `expected optional.none(), got ${String(v)}`);

describe('optional types', () => {
  it('optional.of, ofNonZeroValue, none (upstream examples)', () => {
    assert.equal(some(value('optional.of(10)')), 10n);
    assert.deepEqual(some(value('optional.ofNonZeroValue([1, 2, 3])')), [1n, 2n, 3n]);
    none(value('optional.ofNonZeroValue([])'));
    none(value('optional.ofNonZeroValue(0)'));
    none(value('optional.ofNonZeroValue("")'));
    none(value('optional.ofNonZeroValue(null)'));
    assert.equal(some(value('optional.ofNonZeroValue("hello")')), 'hello');
    none(value('optional.none()'));
    assert.equal(value('optional.of(null).hasValue()'), true);
  });

  it('hasValue, value, or, orValue', () => {
    assert.equal(value("optional.of(b'hello').hasValue()"), true);
    assert.equal(value('optional.ofNonZeroValue({}).hasValue()'), false);
    assert.deepEqual(value("optional.of(b'hello').value()"), new TextEncoder().encode('hello'));
    assert.equal(failure('optional.ofNonZeroValue({}).value()'), 'optional.none() dereference');
    assert.equal(some(value('optional.none().or(optional.of(1))')), 1n);
    assert.equal(value("{'hello': 'world', 'goodbye': 'cruel world'}[?greeting].orValue('you')"), 'world');
    assert.equal(value("{'goodbye': 'cruel world'}[?greeting].orValue('you')"), 'you');
    assert.equal(value('optional.none().or(optional.none()).orValue(42)'), 42n);
  });

  it('optMap and optFlatMap', () => {
    none(value('optional.none().optMap(i, i * 2)'));
    assert.equal(some(value('optional.of(42).optMap(y, y + 1)')), 43n);
    assert.equal(some(value("m.?key.optMap(k, 'dev.cel.' + k.subkey)")), 'dev.cel.value');
    // m = {'key': {}} -> none; m = {'key': {'subkey': 'value'}} -> optional.of('value')
    none(value('m.?empty.optFlatMap(k, k.?subkey)'));
    assert.equal(some(value('m.?key.optFlatMap(k, k.?subkey)')), 'value');
    none(value('{}.?key.optFlatMap(k, k.?subkey)'));
    assert.match(
      failure('optional.of(1).optMap(1, 2)'),
      /optMap\(\) variable name must be a simple identifier/,
    );
    assert.match(failure('optional.of(1).optFlatMap(v, v)'), /must be optional/);
  });

  it('optional selection and indexing', () => {
    assert.equal(value('{}.?x.hasValue()'), false);
    assert.equal(
      value("{'c': {'dashed-index': 'goodbye'}}.c[?'dashed-index'].orValue('default value')"),
      'goodbye',
    );
    assert.equal(
      value("optional.of({'c': {'index': 'goodbye'}}).c.index.orValue('default value')"),
      'goodbye',
    );
    assert.equal(
      value("optional.of({'c': {}}).c.missing.or(optional.none()[0]).orValue('default value')"),
      'default value',
    );
    assert.equal(value("optional.of({'c': {}}).c['missing'].orValue('default value')"), 'default value');
    assert.equal(value("['foo'][?0].value()"), 'foo');
    assert.equal(value('[][?0].hasValue()'), false);
    assert.equal(value('optional.none()[?0].hasValue()'), false);
    assert.equal(value('{1u: 1.0, 2: 2.0, 3u: 3.0}[?2u].value()'), 2);
    assert.equal(value("user.?nick.orValue('none')"), 'none');
    assert.equal(value("user.?name.orValue('none')"), 'ann');
    assert.equal(value('user.?groups[0].value()'), 'a');
    // A selection that fails (not a missing field) stays an error.
    assert.match(failure("optional.ofNonZeroValue({'c': dyn(1)}.a.z).hasValue()"), /no such key: a/);
  });

  it('a bad presence test is none in kube-apiserver, an error with errorOnBadPresenceTest', () => {
    assert.equal(value("{'null_key': dyn(null)}.?null_key.invalid.hasValue()"), false);
    assert.equal(value('{true: dyn(0)}[?true].absent.hasValue()'), false);
    const strict = { errorOnBadPresenceTest: true };
    assert.match(failure("{'null_key': dyn(null)}.?null_key.invalid.hasValue()", strict), /no such key/);
    assert.match(failure('{true: dyn(0)}[?true].absent.hasValue()', strict), /no such key/);
  });

  it('optional list elements and map entries', () => {
    // [a, ?b, ?c] is [a], [a, b], [a, b, c] or [a, c]
    assert.deepEqual(value('[1, ?optional.of(2), ?optional.none(), 4]'), [1n, 2n, 4n]);
    assert.deepEqual(value('[?{}.?c, ?optional.of(42), ?optional.none()]'), [42n]);
    assert.deepEqual(value("{?'key': m.?key.subkey}"), { key: 'value' });
    assert.deepEqual(value("{?'key': m.?nothing.subkey, 'other': 1}"), { other: 1n });
    assert.deepEqual(value("{?'nested_map': optional.ofNonZeroValue({?'map': {}.?c}), 'singleton': true}"), {
      singleton: true,
    });
    // The literal's type is that of the optional's value.
    const c = compile(env, '[?optional.of(1)]');
    assert.ok(c.ok && c.program.resultType === 'list(int)');
    assert.match(failure('[?1]'), /optional entry must be of an optional type, got 'int'/);
    // A ternary inside an element, `?` in strings and comments are not entries.
    assert.deepEqual(value("[x > 0 ? 'a?' : 'b', // ?\n 'c']"), ['a?', 'c']);
  });

  it('has() over optional selections and any operand', () => {
    assert.equal(value('has({}.?x.y)'), false);
    assert.equal(value("has({'x': {'y': 'z'}}.?x.y)"), true);
    assert.equal(value("has({'foo': optional.none()}.foo)"), true);
    assert.equal(value("has({'foo': optional.none()}.foo.bar)"), false);
    assert.equal(value("has({?'foo': optional.none()}.foo)"), false);
    assert.equal(value("has(optional.of({'c': {'entry': 'hello world'}}).c)"), true);
    assert.equal(value("has(optional.of({'c': {'entry': 'hello world'}}).c.missing)"), false);
    assert.equal(value('(has({}.x) ? optional.of({}.x) : optional.none()).hasValue()'), false);
    assert.equal(value('has(user.nick)'), false);
    assert.equal(value('has(user.name)'), true);
    assert.match(failure('has(user.unknown)'), /undefined field 'unknown'|no such key/i);
    assert.match(failure('has(x)'), /invalid argument to has\(\) macro/);
  });

  it('equality and type of optionals', () => {
    assert.equal(value('optional.none() == optional.none()'), true);
    assert.equal(value('optional.of(1) == optional.of(1)'), true);
    assert.equal(value('optional.of(1) == optional.of(1.0)'), true);
    assert.equal(value('optional.of(1) != optional.none()'), true);
    assert.equal(value('[optional.of(1)] == [optional.of(1)]'), true);
    assert.equal(value('type(optional.none()) == optional_type'), true);
    assert.equal(value('type(optional.of(1)) == optional_type'), true);
  });

  it('first, last and unwrap (optional library version 2)', () => {
    assert.equal(some(value('[1, 2, 3].first()')), 1n);
    assert.equal(some(value('[1, 2, 3].last()')), 3n);
    none(value('[].first()'));
    none(value('[].last()'));
    assert.deepEqual(value('optional.unwrap([optional.of(42), optional.none()])'), [42n]);
    assert.deepEqual(value('[optional.of(42), optional.none()].unwrapOpt()'), [42n]);
  });

  it('zero values as cel-go has them', () => {
    for (const v of [null, false, 0n, 0, '', new Uint8Array(), [], {}, new Map()])
      assert.equal(isZeroValue(v), true);
    for (const v of [true, 1n, 0.5, 'a', [0], { a: 1 }, new Date(0)]) assert.equal(isZeroValue(v), false);
  });
});
