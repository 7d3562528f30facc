// Two-variable comprehensions: cel-go's documented examples (ext/README.md, TwoVarComprehensions)
// and the error semantics the CEL conformance file `macros2` pins; also cel.bind (ext.Bindings).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { T } from '../types.ts';

const env = createEnvironment({
  variables: {
    pods: T.list(T.object('comprehensions.Pod', { name: T.string, ready: T.bool })),
    labels: T.map(T.string, T.string),
  },
});
const activation = {
  pods: [
    { name: 'a', ready: true },
    { name: 'b', ready: false },
  ],
  labels: { app: 'web', tier: 'front' },
};

function run(expr: string, costLimit?: number) {
  const c = compile(env, expr);
  if (!c.ok) return { compileError: c.error.message };
  return evaluate(c.program, activation, { costLimit });
}
function value(expr: string): unknown {
  const r = run(expr);
  if ('compileError' in r) throw new Error(r.compileError);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
function failure(expr: string): string {
  const r = run(expr);
  if ('compileError' in r) return r.compileError;
  return r.ok ? `value ${String(r.value)}` : r.error.message;
}

describe('two-variable comprehensions', () => {
  it('all', () => {
    assert.equal(value('[1, 2, 3].all(i, j, i < j)'), true);
    assert.equal(value("{'hello': 'world', 'taco': 'taco'}.all(k, v, k != v)"), false);
    assert.equal(
      value("{'h': ['hello', 'hi'], 'j': ['joke', 'jog']}.all(k, vals, vals.all(v, v.startsWith(k)))"),
      true,
    );
    // false decides even after an error; an error with nothing false is the result.
    assert.equal(value('[1, 2, 3].all(i, v, 6 / (2 - v) == i)'), false);
    assert.equal(failure('[1, 2, 3].all(i, v, v / i != 17)'), 'division by zero');
    assert.equal(value('[].all(i, v, i > -1 || v > 0)'), true);
  });

  it('exists', () => {
    assert.equal(
      value(
        "{'greeting': 'hello', 'farewell': 'goodbye'}.exists(k, v, k.startsWith('good') || v.endsWith('bye'))",
      ),
      true,
    );
    assert.equal(value('[1, 2, 4, 8, 16].exists(i, v, v == 1024 && i == 10)'), false);
    assert.equal(value("[1, 'foo', 3].exists(i, v, i == 1 && v != '1')"), true);
    assert.equal(failure('[1, 2, 3].exists(i, v, v / i == 17)'), 'division by zero');
  });

  it('existsOne and exists_one', () => {
    assert.equal(value('[1, 2, 1, 3, 1, 4].existsOne(i, v, i == 1 || v == 1)'), false);
    assert.equal(value('[1, 1, 2, 2, 3, 3].existsOne(i, v, i == 2 && v == 2)'), true);
    assert.equal(value("{'i': 0, 'j': 1, 'k': 2}.existsOne(i, v, i == 'l' || v == 1)"), true);
    assert.equal(value('[7].exists_one(i, v, i == 0 && v == 7)'), true);
    // No short-circuit: an error anywhere is the result.
    assert.equal(failure('[3, 2, 1, 0].existsOne(i, v, v / i > 1)'), 'division by zero');
    assert.equal(
      value("{6: 'six', 7: 'seven', 8: 'eight'}.existsOne(k, v, k % 5 == 2 && v == 'seven')"),
      true,
    );
  });

  it('transformList', () => {
    assert.deepEqual(value('[1, 2, 3].transformList(indexVar, valueVar, (indexVar * valueVar) + valueVar)'), [
      1n,
      4n,
      9n,
    ]);
    assert.deepEqual(
      value(
        '[1, 2, 3].transformList(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar)',
      ),
      [1n, 9n],
    );
    assert.deepEqual(value("{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(k, _, k)"), [
      'greeting',
      'farewell',
    ]);
    assert.deepEqual(value("{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(_, v, v)"), [
      'hello',
      'goodbye',
    ]);
    assert.equal(failure('[2, 1, 0].transformList(i, v, v / i)'), 'division by zero');
    assert.deepEqual(value("pods.transformList(i, p, p.ready, p.name + ':' + string(i))"), ['a:0']);
  });

  it('transformMap', () => {
    assert.deepEqual(
      value('[1, 2, 3].transformMap(indexVar, valueVar, (indexVar * valueVar) + valueVar)'),
      new Map([
        [0n, 1n],
        [1n, 4n],
        [2n, 9n],
      ]),
    );
    assert.deepEqual(
      value(
        '[1, 2, 3].transformMap(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar)',
      ),
      new Map([
        [0n, 1n],
        [2n, 9n],
      ]),
    );
    assert.deepEqual(value("{'greeting': 'hello'}.transformMap(k, v, v + '!')"), { greeting: 'hello!' });
    assert.deepEqual(value("labels.transformMap(k, v, k != 'tier', v.upperAscii())"), { app: 'WEB' });
    const c = compile(env, 'labels.transformMap(k, v, size(v))');
    assert.ok(c.ok && c.program.resultType === 'map(string, int)');
  });

  it('transformMapEntry', () => {
    assert.deepEqual(value("{'greeting': 'hello'}.transformMapEntry(keyVar, valueVar, {valueVar: keyVar})"), {
      hello: 'greeting',
    });
    assert.deepEqual(
      value('[1, 2, 3].transformMapEntry(indexVar, valueVar, {valueVar: indexVar})'),
      new Map([
        [1n, 0n],
        [2n, 1n],
        [3n, 2n],
      ]),
    );
    assert.equal(
      failure(
        "{'greeting': 'aloha', 'farewell': 'aloha'}.transformMapEntry(keyVar, valueVar, {valueVar: keyVar})",
      ),
      'insert failed: key aloha already exists',
    );
  });

  it('rejects bad iteration variables and ranges at compile time', () => {
    assert.match(failure('[1].all(x, x, x > 0)'), /duplicate variable name: x/);
    assert.match(failure('[1].all(x.y, v, v > 0)'), /argument must be a simple name/);
    assert.match(failure('[1].all(i, v, v)'), /predicate must be bool, got 'int'/);
    assert.match(failure("'abc'.all(i, v, true)"), /cannot be the range of a comprehension/);
    assert.match(failure('[1].transformMapEntry(i, v, v)'), /must be a map/);
  });

  it('charges the body once per entry', () => {
    const small = run('[1].all(i, v, i < v)');
    const large = run('[1, 2, 3, 4, 5, 6, 7, 8].all(i, v, i < v)');
    assert.ok(!('compileError' in small) && small.ok && !('compileError' in large) && large.ok);
    assert.ok(large.cost - small.cost >= 7 * 3, `${small.cost} -> ${large.cost}`);
    const over = run('[1, 2, 3, 4, 5, 6, 7, 8].all(i, v, i < v)', 10);
    assert.ok(!('compileError' in over) && !over.ok && over.error.kind === 'cost');
  });
});

describe('cel.bind', () => {
  it('binds a name for the rest of the expression (upstream examples)', () => {
    assert.equal(value("cel.bind(a, 'hello', cel.bind(b, 'world', a + b + b + a))"), 'helloworldworldhello');
    assert.equal(value('cel.bind(valid_values, [1, 2, 3], [3, 4].exists(elem, elem in valid_values))'), true);
    assert.equal(value('cel.bind(msg, "hello", msg + msg + msg)'), 'hellohellohello');
  });
});
