// The sets extension: cel-go's documented examples (ext/sets.go) and its cost trackers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEnvironment } from '../environment.ts';
import { evaluator } from '../testing/index.ts';
import { T } from '../types.ts';
import { setsLibrary } from './sets.ts';

const env = createEnvironment({
  variables: { a: T.list(T.int), b: T.list(T.int) },
  libraries: [setsLibrary],
});

const { run, value } = evaluator(env);

describe('sets extension', () => {
  it('sets.contains', () => {
    assert.equal(value('sets.contains([], [])'), true);
    assert.equal(value('sets.contains([], [1])'), false);
    assert.equal(value('sets.contains([1, 2, 3, 4], [2, 3])'), true);
    assert.equal(value('sets.contains([1, 2, 3, 4], [2, 5])'), false);
    assert.equal(value('sets.contains([dyn(1), 2.0, 3u], [1.0, dyn(2u), 3])'), true);
  });

  it('sets.equivalent', () => {
    assert.equal(value('sets.equivalent([], [])'), true);
    assert.equal(value('sets.equivalent([1], [1, 1])'), true);
    assert.equal(value('sets.equivalent([dyn(1)], [1u, 1.0])'), true);
    assert.equal(value('sets.equivalent([1, 2, 3], [dyn(3u), 2.0, 1])'), true);
    assert.equal(value('sets.equivalent([1, 2], [1])'), false);
  });

  it('sets.intersects', () => {
    assert.equal(value('sets.intersects([1], [])'), false);
    assert.equal(value('sets.intersects([1], [1, 2])'), true);
    assert.equal(value('sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])'), true);
    assert.equal(value("sets.intersects([{'a': 1}], [{'a': 1.0}])"), true);
  });

  it('lists of different element types compare (upstream rejects them when their types are known)', () => {
    assert.equal(value("sets.contains([1], ['a'])"), false);
    assert.equal(value("sets.intersects([dyn(1), 'a'], ['a'])"), true);
  });

  it('costs 1 plus the product of the sizes (twice for equivalent), as cel-go’s trackers', () => {
    const cost = (expr: string, n = 0) => {
      const list = Array.from({ length: n }, (_, i) => BigInt(i));
      const r = run(expr, { a: list, b: list });
      assert.ok(r.ok);
      return r.cost;
    };
    // kube-apiserver 1.35's figures (recorded); constant lists cost nothing (OptOptimize).
    assert.equal(cost('sets.contains([1, 2, 3], [1, 2])'), 7);
    assert.equal(cost('sets.intersects([1, 2, 3], [4, 5])'), 7);
    assert.equal(cost('sets.equivalent([1, 2, 3], [1, 2])'), 13);
    // Two variables (1 each) of 100 elements: 1 + 100 × 100.
    assert.equal(cost('sets.contains(a, b)', 100), 2 + 1 + 100 * 100);
    assert.equal(cost('sets.equivalent(a, b)', 100), 2 + 1 + 2 * 100 * 100);
  });
});
