// Upstream's documented examples for the lists library (k8s.io/apiserver/pkg/cel/library/lists.go).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { evaluator } from '../testing/index.ts';
import { T } from '../types.ts';
import { listsLibrary } from './lists.ts';

const env = createEnvironment({ variables: { emptyList: T.list(T.int) }, libraries: [listsLibrary] });

const { value, failure } = evaluator(env, { emptyList: [] });

describe('lists library', () => {
  it('isSorted', () => {
    assert.equal(value('[1, 2, 3].isSorted()'), true);
    assert.equal(value("['a', 'b', 'b', 'c'].isSorted()"), true);
    assert.equal(value('[2.0, 1.0].isSorted()'), false);
    assert.equal(value('[1].isSorted()'), true);
    assert.equal(value('[].isSorted()'), true);
  });

  it('sum', () => {
    assert.equal(value('[1, 3].sum()'), 4n);
    assert.equal(value('[1.0, 3.0].sum()'), 4.0);
    assert.equal(String(value("[duration('1s'), duration('2m')].sum() == duration('121s')")), 'true');
    assert.equal(value('[].sum()'), 0n);
    assert.equal(failure('[9223372036854775807, 1].sum()'), 'return error for overflow');
  });

  it('min and max', () => {
    assert.equal(value('[1, 3].min()'), 1n);
    assert.equal(value('[1].min()'), 1n);
    assert.equal(value('([0] + emptyList).min()'), 0n);
    assert.equal(failure('emptyList.min()'), 'min called on empty list');
    assert.equal(value('[1, 3].max()'), 3n);
    assert.equal(value('[1].max()'), 1n);
    assert.equal(value('([0] + emptyList).max()'), 0n);
    assert.equal(failure('emptyList.max()'), 'max called on empty list');
  });

  it('indexOf and lastIndexOf', () => {
    assert.equal(value('[1, 2, 2, 3].indexOf(2)'), 1n);
    assert.equal(value("['a', 'b', 'b', 'c'].indexOf('a')"), 0n);
    assert.equal(value('[1.0].indexOf(1.1)'), -1n);
    assert.equal(value("[].indexOf('string')"), -1n);
    assert.equal(value('[1, 2, 2, 3].lastIndexOf(2)'), 2n);
    assert.equal(value("['a', 'b', 'b', 'c'].lastIndexOf('b')"), 2n);
    assert.equal(value('[1.0].lastIndexOf(1.1)'), -1n);
    assert.equal(value("[].lastIndexOf('string')"), -1n);
  });

  it('charges a traversal of the list, one unit per int element (kube-apiserver: [1, 2, 3, 4, 5].sum() costs 15 unoptimized)', () => {
    const c = compile(env, '[1, 2, 3, 4].sum()');
    assert.ok(c.ok);
    const small = compile(env, '[1].sum()');
    assert.ok(small.ok);
    const big = evaluate(c.program, {});
    const one = evaluate(small.program, {});
    // Constant list literals cost nothing once planned (OptOptimize), so only the traversal differs.
    assert.equal(big.cost - one.cost, 3);
  });
});
