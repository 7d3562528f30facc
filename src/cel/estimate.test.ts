// The static estimator against cel-go's own figures (checker/cost_test.go at v0.26.0, the
// version kube-apiserver 1.35 builds with): each row is an expression, its variables, the sizes
// its test estimator declares (path to maximum; bytes without one are 0..12), cel-go's range, and
// how many list-literal creations each bound of that range counts (each costs 30 more under the
// spec's base of 40: specRange).
// Then compile-time refusal with upstream's messages, and how declared sizes reach the estimate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, type Program } from './compile.ts';
import { type CelLibrary, createEnvironment, type EnvironmentOptions } from './environment.ts';
import { estimateCost, estimateCostExact, type SizeEstimator } from './estimate.ts';
import {
  CEL_SELECTOR_EXPRESSION_MAX_COST,
  costExceedsBudgetMessage,
  STATIC_ESTIMATED_COST_LIMIT,
} from './limits.ts';
import { specRange } from './testing/index.ts';
import { type CelType, T } from './types.ts';

type Row = [
  string,
  Record<string, CelType>,
  Record<string, number>,
  [bigint, bigint],
  (number | [number, number])?,
];

// prettier-ignore
const CEL_GO: readonly Row[] = [
  ['"Hello World!"', {}, {}, [0n, 0n]],
  ['input', { input: T.string }, {}, [1n, 1n]],
  ["input['key']", { input: T.map(T.string, T.string) }, {}, [2n, 2n]],
  ['[1, 2, 3]', {}, {}, [10n, 10n], 1],
  ['{"a": 1, "b": 2, "c": 3}', {}, {}, [30n, 30n]],
  ['input.all(x, true)', { input: T.list(T.int) }, { input: 100 }, [2n, 302n]],
  [
    'input.all(x, x.all(y, true))',
    { input: T.list(T.list(T.int)) },
    { input: 50, 'input.@items': 10 },
    [2n, 1752n],
  ],
  ['[1, 2, 3].all(x, true)', {}, {}, [20n, 20n], 1],
  ["input.matches('[0-9]')", { input: T.string }, { input: 500 }, [3n, 103n]],
  ["'123'.matches('[0-9]')", {}, {}, [2n, 2n]],
  ['true || false', {}, {}, [0n, 0n]],
  ['a || b || c || d', { a: T.bool, b: T.bool, c: T.bool, d: T.bool }, {}, [1n, 4n]],
  ['1 < 2', {}, {}, [1n, 1n]],
  ['2 in [1, 2, 3]', {}, {}, [13n, 13n], 1],
  ['true ? 1 : 2', {}, {}, [0n, 0n]],
  ['size("123")', {}, {}, [1n, 1n]],
  ['size(b"123")', {}, {}, [1n, 1n]],
  ['string(input)', { input: T.bytes }, { input: 500 }, [1n, 51n]],
  ['string(input) == string(input)', { input: T.bytes }, { input: 500 }, [3n, 152n]],
  ['bytes(input)', { input: T.string }, { input: 500 }, [1n, 51n]],
  ['bytes(input) == bytes(input)', { input: T.string }, { input: 500 }, [3n, 302n]],
  ['string(1)', {}, {}, [1n, 1n]],
  ['input.contains(arg1)', { input: T.string, arg1: T.string }, { input: 500, arg1: 500 }, [2n, 2502n]],
  ["input.matches('\\\\d+a\\\\d+b')", { input: T.string }, { input: 500 }, [3n, 103n]],
  ['input.startsWith(arg1)', { input: T.string, arg1: T.string }, { arg1: 500 }, [2n, 52n]],
  ['input.size()', { input: T.string }, {}, [2n, 2n]],
  [
    '(x > 2 ? input1 : input2).all(y, true)',
    { x: T.int, input1: T.list(T.int), input2: T.list(T.int) },
    { input1: 1, input2: 1 },
    [4n, 7n],
  ],
  [
    'input.all(k, k.contains(k))',
    { input: T.map(T.string, T.map(T.string, T.int)) },
    { input: 5, 'input.@keys': 10 },
    [2n, 32n],
  ],
  [
    'input.all(k, input[k].all(x, true))',
    { input: T.map(T.string, T.map(T.string, T.int)) },
    { input: 5, 'input.@values': 10 },
    [2n, 187n],
  ],
  [
    'input.all(k, input[k].all(k, true) && k.contains(k))',
    { input: T.map(T.string, T.map(T.string, T.int)) },
    { input: 2, 'input.@values': 2, 'input.@keys': 5 },
    [2n, 34n],
  ],
  [
    '(list1 + list2).all(x, true)',
    { list1: T.list(T.int), list2: T.list(T.int) },
    { list1: 10, list2: 10 },
    [4n, 64n],
  ],
  ['"abcdefg".contains(str1 + str2)', { str1: T.string, str2: T.string }, { str1: 10, str2: 10 }, [2n, 6n]],
  ['list1.size() == list2.size()', { list1: T.list(T.int), list2: T.list(T.int) }, {}, [5n, 5n]],
  [
    'x > y ? list1.size() : list2.size()',
    { x: T.int, y: T.int, list1: T.list(T.int), list2: T.list(T.int) },
    {},
    [5n, 5n],
  ],
  [
    '([x, y] + list1 + list2).size()',
    { x: T.int, y: T.int, list1: T.list(T.int), list2: T.list(T.int) },
    { list1: 10, list2: 20 },
    [17n, 17n],
    1,
  ],
  [
    "[list1, list2].exists(l, l.exists(v, v.startsWith('hi')))",
    { list1: T.list(T.string), list2: T.list(T.string) },
    { list1: 10, 'list1.@items': 64, list2: 20, 'list2.@items': 128 },
    [21n, 265n],
    1,
  ],
  [
    'str1.endsWith("abcdefghijklmnopqrstuvwxyz") == str2.endsWith("abcdefghijklmnopqrstuvwxyz")',
    { str1: T.string, str2: T.string },
    {},
    [9n, 9n],
  ],
  ['((5 != 6) == (1 == 2)) == ((3 <= 4) == (9 != 9))', {}, {}, [7n, 7n]],
  ['timestamp1 == timestamp2', { timestamp1: T.timestamp, timestamp2: T.timestamp }, {}, [3n, 3n]],
  ['duration1 != duration2', { duration1: T.duration, duration2: T.duration }, {}, [3n, 3n]],
  ['[1,2,3,4,5].filter(x, x % 2 == 0)', {}, {}, [41n, 101n], 1],
  ['[1,2,3,4,5].map(x, x)', {}, {}, [86n, 86n], 1],
  ['[1,2,3,4,5].map(x, x).filter(x, x % 2 == 0)', {}, {}, [117n, 177n], 1],
  ['[1,2,3,4,5].map(x, x).exists(x, x == 5) == true', {}, {}, [108n, 118n], 1],
  ['[1,2,3,4,5].map(x, x).map(x, x)', {}, {}, [162n, 162n], 1],
  ['[1,2,3,4,5].map(x, x)[4]', {}, {}, [87n, 87n], 1],
  ['[[1,2],[1,2],[1,2],[1,2],[1,2]][4]', {}, {}, [61n, 61n], 6],
  ["{'a': [1,2], 'b': [1,2], 'c': [1,2], 'd': [1,2], 'e': [1,2]}.b", {}, {}, [81n, 81n], 5],
  ['[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]].all(y, y.all(y, y == 1))', {}, {}, [76n, 136n], 6],
  ['[1,2,3,4,5].map(x, [x, x]).all(y, y.all(y, y == 1))', {}, {}, [157n, 217n], 6],
  [
    '["a", "ab", "abc", "abcd", "abcde"].map(x, [x, x]).all(y, y.all(y, y.startsWith(\'a\')))',
    {},
    {},
    [157n, 217n],
    6,
  ],
  [
    "input.map(x, [x, x]).all(y, y.all(y, y.startsWith('a')))",
    { input: T.list(T.string) },
    { input: 5 },
    [13n, 208n],
    [0, 5],
  ],
  ['[1,2,3,4,5].map(x, x).map(x, x) + [1]', {}, {}, [173n, 173n], 2],
  ['[1,2,3].all(i, i in [1,2,3].map(j, j + j))', {}, {}, [20n, 230n], [1, 4]],
  ['dyn([1,2,3]).all(i, i in dyn([1,2,3]).map(j, j + j))', {}, {}, [21n, 234n], [1, 4]],
  ["{'hello': 'hi'}['hello'] != {'hello': 'bye'}['hello']", {}, {}, [63n, 63n]],
  ["['hello', 'hi'][0] != ['hello', 'bye'][1]", {}, {}, [23n, 23n], 2],
  ['type(1)', {}, {}, [1n, 1n]],
  ['type(1) == int', {}, {}, [3n, 1844674407370955266n]],
];

function hints(h: Record<string, number>): SizeEstimator {
  return (path, kind) => {
    const k = path.join('.');
    if (Object.hasOwn(h, k)) return { min: 0, max: h[k] };
    return kind === 'bytes' ? { min: 0, max: 12 } : undefined;
  };
}

function program(expr: string, options: EnvironmentOptions): Program {
  const r = compile(createEnvironment(options), expr);
  if (!r.ok) throw new Error(r.error.message);
  return r.program;
}

describe("estimates: cel-go's checker figures", () => {
  for (const [expr, variables, h, [min, max], literals = 0] of CEL_GO) {
    it(expr, () => {
      const [atMin, atMax] = typeof literals === 'number' ? [literals, literals] : literals;
      assert.deepEqual(
        estimateCostExact(program(expr, { variables, sizes: hints(h) })),
        specRange({ min, max }, atMin, atMax),
      );
    });
  }
});

describe('estimates at compile time', () => {
  const env = createEnvironment({
    variables: { l: T.list(T.string), s: T.string },
    sizes: { l: 100, 'l.@items': 64 },
  });

  it("refuses an expression whose worst case passes costLimit, with upstream's message and a position", () => {
    // l 1, the result 1, and per element: the loop condition 2, the accumulator 1, v 1, s 1 and
    // startsWith's scan of its argument, ceil(64 × 0.1) = 7: 100 × 12.
    const sizes = { l: 100, s: 64 };
    const p = program('l.all(v, v.startsWith(s))', {
      variables: { l: T.list(T.string), s: T.string },
      sizes,
    });
    assert.deepEqual(estimateCost(p), { min: 2, max: 1202 });
    const ok = compile(env, "l.all(v, v.startsWith('abc'))", { costLimit: 1000 });
    assert.equal(ok.ok, true);
    const r = compile(env, 'l.all(a, l.all(b, a == b))', { costLimit: 10_000 });
    assert.equal(r.ok, false);
    if (r.ok) return;
    // Per inner element: 3 + a + b + `==` over two strings of up to 64, ceil(6.4) = 7; 100 × 100 of them.
    assert.deepEqual(r.error.cost, { min: 2, max: 120_502, limit: 10_000 });
    assert.equal(
      r.error.reason,
      'estimated rule cost exceeds budget by factor of 12.1x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    );
    assert.equal(r.error.line, 1);
    assert.equal(r.error.column, 1);
    assert.match(
      r.error.message,
      /^compilation failed: ERROR: <input>:1:1: estimated rule cost exceeds budget/,
    );
  });

  it('words the factor as upstream does: six decimals under 1.5, one above, "more than 100x" past 100', () => {
    const m = (cost: number) =>
      costExceedsBudgetMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT).split(' (')[0];
    assert.equal(m(13_440_830), 'estimated rule cost exceeds budget by factor of 1.344083x');
    assert.equal(m(51_600_000), 'estimated rule cost exceeds budget by factor of 5.2x');
    assert.equal(m(2_000_000_000), 'estimated rule cost exceeds budget by factor of more than 100x');
  });

  it('an unbounded string makes a regex unaffordable; a declared maxLength makes it cheap', () => {
    const vars = { s: T.string };
    const unbounded = compile(createEnvironment({ variables: vars }), "s.matches('^[a-z]+$')", {
      costLimit: CEL_SELECTOR_EXPRESSION_MAX_COST,
    });
    assert.equal(unbounded.ok, false);
    const bounded = compile(
      createEnvironment({ variables: vars, sizes: { s: 63 } }),
      "s.matches('^[a-z]+$')",
      {
        costLimit: CEL_SELECTOR_EXPRESSION_MAX_COST,
      },
    );
    assert.equal(bounded.ok, true);
    // ceil((63 + 1) × 0.1) × ceil(8 × 0.25) = 7 × 2, plus s.
    assert.deepEqual(estimateCost(bounded.ok ? bounded.program : (undefined as never)), { min: 3, max: 15 });
  });

  it("an overload's estimateCost hook replaces upstream's rule for that function", () => {
    const lib: CelLibrary = {
      name: 'test.scan',
      functions: [
        {
          name: 'scan',
          overloads: [
            {
              id: 'string_scan',
              receiver: T.string,
              params: [],
              result: T.string,
              impl: (x: string) => x,
              cost: (args) => (args[0] as string).length,
              estimateCost: (sizes) => ({ min: sizes[0].min, max: sizes[0].max * 2 }),
              estimateResultSize: (sizes) => sizes[0],
            },
          ],
        },
      ],
    };
    const p = program('s.scan() == s', { variables: { s: T.string }, libraries: [lib], sizes: { s: 10 } });
    // s 1 + scan 0..20 + s 1 + `==` 1 (ceil(min(10, 10) × 0.1), at least 1 when a side may be non-empty).
    assert.deepEqual(estimateCost(p), { min: 3, max: 23 });
  });
});
