// cel-go's list extension at version 3 (ext/lists.go, lists_test.go at v0.26.0, the version
// kube-apiserver 1.35 builds with): its documented examples, its error messages, and the costs of
// its TestListsCosts (actual and estimated; cel-go's test plans without OptOptimize, so its list
// literals are built and cost 10 there, 40 here: specCost), plus kube-apiserver 1.35's figures for
// sortBy in the base environment.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baseEnvironment } from '../base-environment.ts';
import { compile } from '../compile.ts';
import { createEnvironment } from '../environment.ts';
import { estimateCost } from '../estimate.ts';
import { evaluate } from '../evaluate.ts';
import { evaluator, specCost, specRange } from '../testing/index.ts';
import { T } from '../types.ts';
import { listsExtLibrary } from './lists-ext.ts';

const env = createEnvironment({
  variables: { x: T.dyn },
  libraries: [listsExtLibrary],
  optimize: false,
});

const { value, failure } = evaluator(env);
const holds = (expr: string) => assert.equal(value(expr), true, expr);

describe('cel.lib.ext.lists (version 3)', () => {
  it('lists.range and reverse', () => {
    holds('lists.range(4) == [0,1,2,3]');
    holds('lists.range(0) == []');
    holds('[5,1,2,3].reverse() == [3,2,1,5]');
    holds('[].reverse() == []');
    holds('[1].reverse() == [1]');
    holds(
      "['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']",
    );
    holds('[false, true, true].reverse().reverse() == [false, true, true]');
  });

  it('slice', () => {
    holds('[1,2,3,4].slice(0, 4) == [1,2,3,4]');
    holds('[1,2,3,4].slice(0, 0) == []');
    holds('[1,2,3,4].slice(1, 1) == []');
    holds('[1,2,3,4].slice(4, 4) == []');
    holds('[1,2,3,4].slice(1, 3) == [2, 3]');
    assert.equal(
      failure('[1,2,3,4].slice(3, 0)'),
      'cannot slice(3, 0), start index must be less than or equal to end index',
    );
    assert.equal(failure('[1,2,3,4].slice(0, 10)'), 'cannot slice(0, 10), list is length 4');
    assert.equal(failure('[1,2,3,4].slice(-5, 10)'), 'cannot slice(-5, 10), negative indexes not supported');
    assert.equal(failure('[1,2,3,4].slice(-5, -3)'), 'cannot slice(-5, -3), negative indexes not supported');
  });

  it('flatten', () => {
    holds('dyn([]).flatten() == []');
    holds('[1,[2,[3,4]]].flatten() == [1,2,[3,4]]');
    holds('[1,2,[],[],[3,4]].flatten() == [1,2,3,4]');
    holds('[1,[2,[3,4]]].flatten(2) == [1,2,3,4]');
    holds('[[1], [2, 3]].flatten() == [1, 2, 3]');
    assert.equal(failure('[1,[2,[3,[4]]]].flatten(-1) == [1,2,3,4]'), 'level must be non-negative');
    assert.equal(failure('[].flatten(-1)'), 'level must be non-negative');
    assert.match(failure('dyn({}).flatten()'), /no matching overload/);
    assert.match(failure('dyn({}).flatten(0)'), /no matching overload/);
    assert.match(failure("[].flatten(dyn('1'))"), /no matching overload/);
    // A flat list of a type other than list is refused at compile time, as cel-go's checker does.
    assert.match(failure('[1, 2].flatten()'), /no matching overload/);
  });

  it('sort and sortBy', () => {
    holds('[].sort() == []');
    holds('[1].sort() == [1]');
    holds('[4, 3, 2, 1].sort() == [1, 2, 3, 4]');
    holds('["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]');
    assert.equal(failure('["d", 3, 2, "c"].sort()'), 'list elements must have the same type');
    holds('[].sortBy(e, e) == []');
    holds('["a"].sortBy(e, e) == ["a"]');
    holds('[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]');
    holds('[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]');
    holds('lists.range(3).sortBy(e, -e) == [2, 1, 0]');
    holds('["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]');
    holds(
      "[{'name': 'foo'}, {'name': 'bar'}, {'name': 'baz'}].sortBy(e, e.name).map(e, e.name) == ['bar', 'baz', 'foo']",
    );
    assert.match(failure('[[1], [2]].sort()'), /no matching overload/);
    assert.equal(
      failure('1.sortBy(e, e)'),
      'compilation failed: ERROR: <input>:1:1: Syntax error: sortBy can only be applied to a list, identifier, comprehension, call or select expression\n | 1.sortBy(e, e)\n | ^',
    );
    assert.match(failure('[1].sortBy(1, e)'), /<input>:1:12: .*argument is not an identifier/);
    // The bound target is cel-go's `@__sortBy_input__`: no expression can name it.
    assert.match(failure('[1].sortBy(e, @__sortBy_input__)'), /Syntax error/);
  });

  it('distinct', () => {
    holds('[].distinct() == []');
    holds('[1].distinct() == [1]');
    holds('[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]');
    holds("['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']");
    holds('[1, 2.0, "c", 3, "c", 1].distinct() == [1, 2.0, "c", 3]');
    holds('[1, 1.0, 2].distinct() == [1, 2]');
    holds('[[1], [1], [2]].distinct() == [[1], [2]]');
  });

  // cel-go's TestListsCosts: [expression, variables, values, sizes, actual, estimate, list literals
  // those figures count (each costs 30 more here: specCost)].
  const COSTS: readonly [
    string,
    Record<string, ReturnType<typeof T.list> | typeof T.int>,
    Record<string, unknown>,
    Record<string, number>,
    number,
    [number, number],
    number,
  ][] = [
    ['lists.range(4) == [0, 1, 2, 3]', {}, {}, {}, 26, [26, 26], 1],
    ['[[1, 2], 3].flatten(1) == [1, 2, 3]', {}, {}, {}, 44, [44, 44], 3],
    ['[[1, 2], 3].flatten(2) == [1, 2, 3]', {}, {}, {}, 46, [46, 46], 3],
    ['[[1, 2], 3].flatten(3) == [1, 2, 3]', {}, {}, {}, 48, [48, 48], 3],
    ['[[1], 2, 3].flatten() == [1, 2, 3]', {}, {}, {}, 45, [45, 45], 3],
    ['x.flatten() == [1, 2, 3]', { x: T.list(T.dyn) }, { x: [[1n], 2n, 3n] }, { x: 3 }, 26, [23, 26], 1],
    ['[1, 2, 3].distinct() == [1, 2, 3]', {}, {}, {}, 50, [50, 50], 2],
    ['[1, 1, 1].distinct() == [1]', {}, {}, {}, 50, [50, 50], 2],
    [
      "x.distinct() == ['hello']",
      { x: T.list(T.string) },
      { x: ['hello', 'hello'] },
      { x: 3 },
      31,
      [23, 41],
      1,
    ],
    ['[1, 2, 3, 4, 5].slice(x, y) == [2, 3]', { x: T.int, y: T.int }, { x: 1n, y: 3n }, {}, 36, [39, 39], 2],
    [
      'z.slice(1, 3) == [2, 3]',
      { z: T.list(T.int) },
      { z: [1n, 2n, 3n, 4n, 5n, 6n, 7n] },
      { z: 10 },
      25,
      [25, 25],
      1,
    ],
    ['[1, 2, 3].slice(1, 3) == [2, 3]', {}, {}, {}, 34, [34, 34], 2],
    ['[3, 2, 1].reverse() == [1, 2, 3]', {}, {}, {}, 35, [35, 35], 2],
    ['x.reverse() == [1, 2, 3]', { x: T.list(T.int) }, { x: [3n, 2n, 1n] }, { x: 5 }, 26, [23, 28], 1],
    ['[2, 3, 1].sort() == [1, 2, 3]', {}, {}, {}, 50, [50, 50], 2],
    ['x.sort() == [1, 2, 3]', { x: T.list(T.int) }, { x: [3n, 2n, 1n] }, { x: 5 }, 41, [23, 73], 1],
    [
      'x.sort() == ["a", "a", "b", "b", "c", "c"]',
      { x: T.list(T.string) },
      { x: ['b', 'a', 'b', 'a', 'c', 'c'] },
      { x: 10 },
      98,
      [23, 233],
      1,
    ],
    ['x.sort() == []', { x: T.list(T.int) }, { x: [] }, { x: 10 }, 22, [22, 222], 1],
    ["[{'x':4}, {'x':3}].sortBy(m, m['x']) == [{'x':3}, {'x':4}]", {}, {}, {}, 211, [211, 211], 2],
  ];

  it("costs as cel-go's TestListsCosts gives them (unoptimized)", () => {
    for (const [expr, variables, values, sizes, actual, [min, max], literals] of COSTS) {
      const e = createEnvironment({ variables, libraries: [listsExtLibrary], optimize: false });
      const c = compile(e, expr);
      assert.ok(c.ok, `${expr}: ${c.ok ? '' : c.error.message}`);
      const r = evaluate(c.program, values);
      assert.equal(r.ok && r.value, true, expr);
      assert.equal(r.cost, specCost(actual, literals), `${expr}: actual cost`);
      assert.deepEqual(
        estimateCost(c.program, sizes),
        specRange({ min, max }, literals),
        `${expr}: estimate`,
      );
    }
  });

  it('costs as kube-apiserver 1.35 gives them in its base environment', () => {
    const base = baseEnvironment({ variables: {} });
    // [expression, cost] as recorded from k8s.io/apiserver v0.35.0's base environment.
    for (const [expr, cost] of [
      ['lists.range(4) == [0, 1, 2, 3]', 16],
      ['[[1, 2], [3]].flatten(2) == [1, 2, 3]', 16],
      ['[1, 2, 3].distinct() == [1, 2, 3]', 30],
      ['[1, 2, 3].slice(1, 3) == [2, 3]', 14],
      ['[3, 2, 1].reverse() == [1, 2, 3]', 15],
      ['[2, 3, 1].sort() == [1, 2, 3]', 30],
      ["[{'x':4}, {'x':3}].sortBy(m, m['x']) == [{'x':3}, {'x':4}]", 51],
      ['lists.range(3).sortBy(e, -e)', 88],
      ['[1, 2, 3].sortBy(e, -e)', 74],
    ] as const) {
      const c = compile(base, expr);
      assert.ok(c.ok, `${expr}: ${c.ok ? '' : c.error.message}`);
      assert.equal(evaluate(c.program, {}).cost, cost, expr);
    }
  });
});
