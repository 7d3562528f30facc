import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from './compile.ts';
import { createEnvironment } from './environment.ts';
import { T } from './types.ts';

const user = T.object('UserInfo', {
  username: T.string,
  uid: T.string,
  groups: T.list(T.string),
  extra: T.map(T.string, T.list(T.string)),
});
const env = createEnvironment({ variables: { user, claims: T.map(T.string, T.dyn), x: T.int } });

function error(expr: string, options = {}) {
  const r = compile(env, expr, options);
  assert.equal(r.ok, false, `${expr} compiled`);
  return (r as { ok: false; error: { message: string; line: number; column: number } }).error;
}

describe('compile', () => {
  it('reports an undeclared reference with its position, as cel-go words it', () => {
    const e = error('1 + y');
    assert.equal(
      e.message,
      "compilation failed: ERROR: <input>:1:5: undeclared reference to 'y' (in container '')\n | 1 + y\n | ....^",
    );
    assert.deepEqual([e.line, e.column], [1, 5]);
  });

  it('counts lines and columns in multi-line expressions', () => {
    const e = error('x == 1 &&\n  zz');
    assert.deepEqual([e.line, e.column], [2, 3]);
  });

  it('rejects an unknown field of a typed variable', () => {
    assert.match(error('user.nosuch').message, /<input>:1:6: undefined field 'nosuch'/);
  });

  it('accepts the declared fields and any key of a map', () => {
    for (const expr of [
      'user.username',
      'user.groups[0]',
      "user.extra['k'][0]",
      'claims.email',
      "claims['x-y']",
    ]) {
      assert.equal(compile(env, expr).ok, true, expr);
    }
  });

  it('reports syntax errors with a position', () => {
    assert.match(error('1 +').message, /^compilation failed: ERROR: <input>:1:4: Syntax error: /);
  });

  it('rejects mixing int with double or uint without a conversion', () => {
    assert.match(
      error('x + 1.0').message,
      /found no matching overload for '_\+_' applied to '\(int, double\)'/,
    );
    assert.match(error('1u == 1').message, /found no matching overload/);
  });

  it('checks the result type against what the caller expects', () => {
    assert.match(
      error('user.username == "a"', { expected: [T.string] }).message,
      /must evaluate to string, got bool/,
    );
    const both = [T.string, T.list(T.string)];
    assert.match(
      error('x', { expected: both }).message,
      /must evaluate to string or list\(string\), got int/,
    );
    for (const expr of ['user.username', 'user.groups', 'claims.sub']) {
      assert.equal(compile(env, expr, { expected: both }).ok, true, expr);
    }
    const r = compile(env, 'user.groups', { expected: both });
    assert.equal(r.ok && r.program.resultType, 'list(string)');
  });

  it('enforces the expression length limit', () => {
    assert.match(error('x == 12345', { maxLength: 5 }).message, /exceeds the limit of 5/);
    const limited = createEnvironment({ variables: {}, limits: { maxExpressionLength: 3 } });
    assert.equal(compile(limited, '1 + 1').ok, false);
  });

  it('supports optionals, cel.bind and macros', () => {
    for (const expr of [
      "claims.?email.orValue('')",
      'optional.of(1).hasValue()',
      'cel.bind(v, x * 2, v + v) > 0',
      'user.groups.all(g, g != "")',
    ]) {
      assert.equal(compile(env, expr).ok, true, expr);
    }
  });
});
