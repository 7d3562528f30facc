// The fixes as a caller sees them, through compile/evaluate. Most of their behaviour is asserted
// case by case by the conformance test (bench/cel/conformance.test.ts); these cover what that
// data does not: positions after a rewritten literal, reserved words as member functions, the
// value shapes a caller receives, and that cost tracking still sees the replaced evaluators.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { Duration, UnsignedInt } from '../engine.ts';
import { type CelLibrary, createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { T } from '../types.ts';
import { durationNanos, timestampNanos } from './index.ts';

const env = createEnvironment({ variables: { x: T.int, d: T.dyn } });

function run(expr: string, activation: Record<string, unknown> = {}) {
  const c = compile(env, expr);
  if (!c.ok) throw new Error(c.error.message);
  const r = evaluate(c.program, { x: 1n, d: null, ...activation });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function runError(expr: string): string {
  const c = compile(env, expr);
  if (!c.ok) throw new Error(c.error.message);
  const r = evaluate(c.program, { x: 1n, d: null });
  assert.equal(r.ok, false, `${expr} evaluated`);
  return r.ok ? '' : r.error.message;
}

describe('cel fixes', () => {
  it('reports positions in the expression as written after a `.5` literal', () => {
    const c = compile(env, '.5 + .25 == y');
    assert.equal(c.ok, false);
    if (!c.ok) assert.equal(c.error.column, 13);
    assert.equal(run('.5 + .25'), 0.75);
  });

  it('parses reserved words as member function names', () => {
    const lib: CelLibrary = {
      name: 'reserved-words',
      functions: ['while', 'if', 'package'].map((name) => ({
        name,
        overloads: [
          { id: `string_${name}`, receiver: T.string, params: [], result: T.string, impl: () => name },
        ],
      })),
    };
    const e = createEnvironment({ variables: {}, libraries: [lib] });
    const c = compile(e, `'a'.while() + 'a'.if() + 'a'.package()`);
    assert.ok(c.ok, c.ok ? '' : c.error.message);
    const r = evaluate(c.program, {});
    assert.deepEqual(r.ok && r.value, 'whileifpackage');
  });

  it('decodes bytes literals as CEL does', () => {
    assert.deepEqual([...(run(`b'ÿ'`) as Uint8Array)], [0xc3, 0xbf]);
    assert.deepEqual([...(run(`br'\\x00'`) as Uint8Array)], [...Buffer.from('\\x00')]);
    assert.deepEqual([...(run(`b'\\x00\\377'`) as Uint8Array)], [0, 255]);
  });

  it('selects fields quoted in backticks', () => {
    assert.equal(run("{'content-type': 'a', 'x.y': 'b'}.`content-type` + {'x.y': 'b'}.`x.y`"), 'ab');
    assert.equal(run("dyn({'/v1': 1}).?`/v1`.orValue(0)"), 1n);
  });

  it('keeps map literal keys typed', () => {
    const m = run(`{1: 'a', 2u: 'b', true: 'c'}`) as Map<unknown, unknown>;
    assert.ok(m instanceof Map);
    assert.deepEqual(
      [...m.keys()].map((k) => (k instanceof UnsignedInt ? `${k.value}u` : k)),
      [1n, '2u', true],
    );
    assert.deepEqual(run(`{'a': 1}`), { a: 1n });
    assert.equal(run(`{1: 'a'}[1u] + {1: 'a'}[1.0]`), 'aa');
    assert.match(runError(`{1: 'a', 1u: 'b'}`), /repeated key/);
    assert.equal(runError(`dyn({'1': 'a'})[1]`), 'no such key: 1');
  });

  it('gives timestamps nanoseconds and durations cel-go ranges', () => {
    const t = run(`timestamp('2009-02-13T23:31:30.123456789+01:00')`) as Date;
    assert.ok(t instanceof Date);
    assert.equal(timestampNanos(t), 1234564290123456789n);
    assert.equal(run(`string(timestamp('2009-02-13T23:31:30.120Z'))`), '2009-02-13T23:31:30.12Z');
    assert.equal(durationNanos(run(`duration('1h1.5ms')`) as Duration), 3_600_001_500_000n);
    assert.equal(run(`string(duration('-1.5s'))`), '-1.5s');
    assert.equal(run(`duration('-1.5s') == duration('0s') - duration('1.5s')`), true);
    assert.equal(run(`timestamp('2009-02-13T23:31:30Z').getHours('-02:30')`), 21n);
    assert.match(runError(`duration('2562048h')`), /range/);
  });

  it('keeps int64 edges as errors', () => {
    const c = compile(env, 'x + 9223372036854775808');
    assert.equal(
      c.ok ? '' : c.error.message.split('\n')[0],
      'compilation failed: ERROR: <input>:1:5: Syntax error: invalid int literal',
    );
    assert.equal(run('-9223372036854775808 < 0'), true);
    assert.equal(runError('-9223372036854775808 / -1'), 'return error for overflow');
    assert.equal(runError('-9223372036854775808 % -1'), 'return error for overflow');
    assert.equal(runError('int(9223372036854775807.0)'), 'range error');
    assert.equal(run('int(9223372036854775807u)'), 9223372036854775807n);
  });

  it('charges the cost of map literal entries', () => {
    const c = compile(env, `{'a': x, 'b': x}`);
    assert.ok(c.ok);
    const r = evaluate(c.program, { x: 1n, d: null });
    // cel-go's map creation base (30) plus the two reads of x; constant keys cost nothing. Checked
    // against kube-apiserver 1.35's base environment: `{'a': 1+1, 'b': 2}.size() > 0` costs 33.
    assert.equal(r.cost, 32);
  });

  it('compares dyn values across number kinds', () => {
    assert.equal(run('dyn(1u) == 1 && dyn(1) == 1.0 && [1, 2u] == [1.0, 2]'), true);
    assert.equal(run('dyn(9223372036854775807) < 9223372036854775808.0'), false);
    assert.equal(run(`b'a' < b'b' && dyn(3u) in [1, 2, 3]`), true);
    assert.equal(run('[7, 8, 9][dyn(1u)] + [7, 8, 9][dyn(2.0)]'), 17n);
    assert.equal(run('[].all(e, e > 0)'), true);
  });

  it('returns a fresh duration for identity conversions of caller values', () => {
    assert.equal(durationNanos(run('duration(d)', { d: new Duration(2n, 5) }) as Duration), 2_000_000_005n);
  });
});
