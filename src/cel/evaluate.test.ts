import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, type Program } from './compile.ts';
import { createEnvironment, type EnvironmentOptions } from './environment.ts';
import { evaluate } from './evaluate.ts';
import { ProgramCache } from './program-cache.ts';
import { T } from './types.ts';
import { fromJson } from './values.ts';

const variables = { x: T.int, u: T.uint, d: T.double, claims: T.map(T.string, T.dyn) };
const env = createEnvironment({ variables });

function program(expr: string, opts: Partial<EnvironmentOptions> = {}): Program {
  const r = compile(
    opts.variables || opts.trackCost !== undefined ? createEnvironment({ variables, ...opts }) : env,
    expr,
  );
  if (!r.ok) throw new Error(r.error.message);
  return r.program;
}
const run = (expr: string, activation: Record<string, unknown> = {}, costLimit?: number) =>
  evaluate(program(expr), { x: 1n, u: 1n, d: 1, claims: {}, ...activation }, { costLimit });

describe('evaluate', () => {
  it('divides ints as ints', () => {
    assert.deepEqual(run('1 / 2 == 0'), { ok: true, value: true, cost: 2 });
    const r = run('7 / 2');
    assert.equal(r.ok && r.value, 3n);
  });

  it('reports int64 overflow as a runtime error', () => {
    const r = run('9223372036854775807 + x');
    assert.deepEqual(r.ok ? r : r.error, { message: 'return error for overflow', kind: 'runtime' });
    assert.equal(run('-9223372036854775807 - 2 * x').ok, false);
  });

  it('keeps uint apart from int', () => {
    const r = run('2u + 3u');
    assert.equal(r.ok && String(r.value), '5');
    assert.equal(run('0u - 1u').ok, false);
    const c = run('uint(x) == 1u');
    assert.equal(c.ok && c.value, true);
  });

  it('reports division and modulus by zero and a missing key, never throwing', () => {
    const msg = (expr: string) => {
      const r = run(expr);
      return r.ok ? `value ${String(r.value)}` : r.error.message;
    };
    assert.equal(msg('x / 0'), 'division by zero');
    assert.equal(msg('x % 0'), 'modulus by zero');
    assert.equal(msg("claims['email']"), 'no such key: email');
  });

  it('returns an error value for a wrong activation instead of throwing', () => {
    const r = evaluate(program('claims.a.b'), { claims: { a: 3n } });
    assert.equal(r.ok, false);
    const weird = evaluate(program('x + 1'), { x: 'not an int' });
    assert.equal(weird.ok, false);
  });

  it('stops at the cost limit with a cost error', () => {
    const r = run('[1,2,3,4,5,6,7,8].all(i, [1,2,3,4,5,6,7,8].all(j, i * j > 0))', {}, 50);
    assert.equal(!r.ok && r.error.kind, 'cost');
    assert.equal(!r.ok && r.error.message, 'operation cancelled: actual cost limit exceeded');
    assert.equal(run('x == 1', {}, 50).ok, true);
  });

  it('reports cost 0 when tracking is off', () => {
    const r = evaluate(program('x + 1', { trackCost: false }), { x: 1n });
    assert.deepEqual(r, { ok: true, value: 2n, cost: 0 });
  });

  it('converts JSON numbers with fromJson', () => {
    const claims = fromJson({ n: 3, f: 1.5, list: [1, 2] }) as Record<string, unknown>;
    assert.equal(run('claims.n + 1 == 4', { claims }).ok, true);
    const r = run('claims.list.size() == 2 && claims.f == 1.5', { claims });
    assert.equal(r.ok && r.value, true);
  });
});

describe('ProgramCache', () => {
  it('compiles once per environment and expression, and evicts the least recently used', () => {
    const cache = new ProgramCache(2);
    const a = cache.compile(env, 'x + 1');
    assert.equal(cache.compile(env, 'x + 1'), a);
    const other = createEnvironment({ variables });
    assert.notEqual(cache.compile(other, 'x + 1'), a);
    assert.deepEqual(cache.stats, { size: 2, hits: 1, misses: 2 });
    cache.compile(env, 'x + 1'); // a becomes most recent
    cache.compile(env, 'x + 2'); // evicts other's entry
    assert.equal(cache.compile(env, 'x + 1'), a);
    assert.equal(cache.stats.size, 2);
  });

  it('caches failures and keys by the expected result type', () => {
    const cache = new ProgramCache();
    const bad = cache.compile(env, 'nope');
    assert.equal(bad.ok, false);
    assert.equal(cache.compile(env, 'nope'), bad);
    assert.equal(cache.compile(env, 'x', { expected: [T.bool] }).ok, false);
    assert.equal(cache.compile(env, 'x', { expected: [T.int] }).ok, true);
  });
});
