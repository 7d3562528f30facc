// Sizes declared the way upstream declares them, checked against upstream's figures: custom
// resource schemas (apiextensions-apiserver pkg/apiserver/schema/cel/compilation_test.go
// TestCostEstimation, v0.35: each rule estimated without the schema's bounds, then with them set),
// and DRA device selectors (dynamic-resource-allocation cel/compile_test.go, v0.35).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baseEnvironment } from './base-environment.ts';
import { compile } from './compile.ts';
import { estimateCostExact } from './estimate.ts';
import {
  type SizedSchema,
  type SizeNode,
  sizesFromSchema,
  sizesFromTree,
  sizeTreeFromSchema,
} from './estimate-sizes.ts';
import { evaluate } from './evaluate.ts';
import {
  CEL_SELECTOR_EXPRESSION_MAX_COST,
  COST_LIMIT_EXCEEDED_MESSAGE,
  DRA_SIZES,
  MAX_REQUEST_SIZE_BYTES,
} from './limits.ts';
import { specCost } from './testing/index.ts';
import { T, typeFromSchema } from './types.ts';

type Gen = (max?: number) => SizedSchema;
const prim = (t: string): SizedSchema =>
  t === 'int-or-string'
    ? { 'x-kubernetes-int-or-string': true }
    : ['date', 'date-time', 'duration'].includes(t)
      ? { type: 'string', format: t }
      : { type: t };
const arr =
  (t: string): Gen =>
  (m) => ({ type: 'array', items: prim(t), maxItems: m });
const arrOfArr =
  (t: string): Gen =>
  (m) => ({ type: 'array', items: { type: 'array', items: { type: t } }, maxItems: m });
const objArr: Gen = (m) => ({
  type: 'array',
  maxItems: m,
  items: {
    type: 'object',
    required: ['required'],
    properties: { required: { type: 'string' }, optional: { type: 'string' } },
  },
});
const map =
  (t: string): Gen =>
  (m) => ({ type: 'object', additionalProperties: prim(t), maxProperties: m });
const str: Gen = (m) => ({ type: 'string', maxLength: m });
const bytes: Gen = (m) => ({ type: 'string', format: 'byte', maxLength: m });
const nested: Gen = (m) => ({
  type: 'object',
  maxProperties: m,
  additionalProperties: { type: 'string', maxLength: m },
});
const mapArr: Gen = (m) => ({
  type: 'array',
  maxItems: m,
  items: { type: 'object', additionalProperties: { type: 'number' } },
});
const enm: Gen = (m) => ({ type: 'string', maxLength: m, enum: ['A', 'B', 'C', 'LongValue'] });
const ios: Gen = (m) => ({ 'x-kubernetes-int-or-string': true, maxLength: m });
const strObj = (m?: number): SizedSchema => ({ type: 'string', maxLength: m });
const replaceObj: Gen = (m) => ({
  type: 'object',
  properties: { str: strObj(m), before: strObj(2), after: strObj(4) },
});
const splitObj: Gen = (m) => ({ type: 'object', properties: { str: strObj(m), separator: strObj(m) } });
const joinArr: Gen = (m) => ({ type: 'array', maxItems: m, items: strObj(m) });

// prettier-ignore
// [name, schema, rule, estimate without bounds, the bound set, estimate with it (0: not checked
// upstream), list literals each estimate counts (30 more each here than upstream: specCost)]
const CRD: readonly [string, Gen, string, number, number, number, number?][] = [
  ['number array with all', arr('number'), 'self.all(x, true)', 4718591, 10, 32],
  ['string array with all', arr('string'), 'self.all(x, true)', 3145727, 20, 62],
  ['boolean array with all', arr('boolean'), 'self.all(x, true)', 1887437, 5, 17],
  ['array of number arrays', arrOfArr('number'), 'self.all(x, true)', 3145727, 100, 302],
  ['array of objects', objArr, 'self.all(x, true)', 555128, 50, 152],
  ['map of numbers', map('number'), 'self.all(x, true)', 1348169, 10, 32],
  ['map of strings', map('string'), 'self.all(x, true)', 1179647, 3, 11],
  ['map of booleans', map('boolean'), 'self.all(x, true)', 943718, 100, 302],
  ['string contains', str, "self.contains('test')", 314574, 10, 5],
  ['string startsWith', str, "self.startsWith('test')", 2, 15, 2],
  ['concat string', str, 'size(self + "hello") > size("hello")', 314578, 4, 7],
  ['index of array with numbers', arr('number'), 'self[1] == 0.0', 2, 5000, 2],
  ['index of array with strings', arr('string'), 'self[1] == self[1]', 314577, 8, 314577],
  ['O(n^2)', arr('number'), 'self.all(x, self.all(y, true))', 0, 10, 352],
  ['O(n^3)', arr('number'), 'self.all(x, self.all(y, self.all(z, true)))', 0, 10, 3552],
  ['regex matches simple', str, 'self.matches("x")', 314574, 50, 22],
  ['regex matches empty string', str, '"".matches("(((((((((())))))))))[0-9]")', 7, 10, 7],
  ['regex matches empty regex', str, 'self.matches("")', 1, 100, 1],
  ['map of strings with value length', nested, 'self.all(x, x.contains(self[x]))', 2752507, 10, 72],
  ['set array maxLength to zero', arr('number'), 'self[3] == 0.0', 2, 0, 2],
  ['set map maxLength to zero', map('number'), 'self["x"] == 0.0', 2, 0, 2],
  ['set string maxLength to zero', str, 'self == "x"', 2, 0, 1],
  ['set bytes maxLength to zero', bytes, 'self == b"x"', 2, 0, 1],
  [
    'maxLength greater than estimated',
    arr('number'),
    'self.all(x, x == 0.0)',
    6291454,
    3 * 1024 * 2048,
    25165826,
  ],
  ['int-or-string array', arr('int-or-string'), 'self.all(x, true)', 4718591, 10, 32],
  ['index of array with int-or-strings', arr('int-or-string'), 'self[0] == 5', 3, 10, 3],
  ['index of array with booleans', arr('boolean'), 'self[0] == false', 2, 25, 2],
  ['array of number maps with all', mapArr, 'self.all(x, x.y == 25.2)', 6291452, 12, 74],
  ['index of array of number maps', mapArr, 'self[0].x > 2.0', 4, 3000, 4],
  ['duration array with all', arr('duration'), 'self.all(x, true)', 2359295, 5, 17],
  ['date array with all', arr('date'), 'self.all(x, true)', 725936, 15, 47],
  ['date-time array with all', arr('date-time'), 'self.all(x, true)', 428963, 25, 77],
  ['map of int-or-strings', map('int-or-string'), 'self.all(x, true)', 1348169, 15, 47],
  ['map of durations', map('duration'), 'self.all(x, true)', 1048577, 5, 17],
  ['map of dates', map('date'), 'self.all(x, true)', 524288, 10, 32],
  ['map of date-times', map('date-time'), 'self.all(x, true)', 349526, 25, 77],
  ['regex find', str, "self.find('[0-9]+') == ''", 629147, 10, 11],
  ['join', joinArr, "self.join(' ') == 'aa bb'", 329853068905, 10, 43],
  ['isSorted', joinArr, 'self.isSorted() == true', 329854432052, 10, 52],
  ['replace', replaceObj, "self.str.replace(self.before, self.after) == 'does not matter'", 629154, 4, 12],
  ['split', splitObj, 'self.str.split(self.separator) == []', 629160, 10, 22, 1],
  ['lowerAscii', str, "self.lowerAscii() == 'lower!'", 314575, 10, 6],
  ['size call', map('integer'), 'oldSelf.size() == self.size()', 5, 10, 5],
  ['timestamp comparison', map('date-time'), 'self["a"] == self["b"]', 8, 7, 8],
  ['enum contains', enm, "self.contains('A')", 2, 1000, 401],
  ['IntOrString quantity', ios, 'isQuantity(self)', 314574, 20, 9],
];

describe('custom resource rules: estimates from the schema', () => {
  for (const [name, gen, rule, unbounded, bound, bounded, literals = 0] of CRD) {
    it(`${name}: ${rule}`, () => {
      for (const [schema, want] of [
        [gen(undefined), unbounded],
        [gen(bound), bounded],
      ] as const) {
        if (want === 0) continue;
        const type = typeFromSchema(schema, 'self');
        const env = baseEnvironment({
          variables: { self: type, oldSelf: type },
          sizes: sizesFromSchema(['self', 'oldSelf'], schema, false),
        });
        const r = compile(env, rule);
        assert.ok(r.ok, r.ok ? '' : r.error.message);
        assert.equal(
          estimateCostExact(r.program).max,
          specCost(BigInt(want), literals),
          JSON.stringify(schema),
        );
      }
    });
  }

  it('bounds what the schema leaves unbounded by the 3 MiB request', () => {
    const tree = sizeTreeFromSchema({ type: 'array', items: { type: 'number' } });
    // `[` and `]` aside, each number is at least one character and a comma.
    assert.equal(tree?.maxElements, 1_572_863);
    assert.equal(tree?.maxElements, Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / 2));
    assert.equal(sizeTreeFromSchema({ type: 'string' })?.maxElements, MAX_REQUEST_SIZE_BYTES - 2);
    // maxLength counts code points; upstream bounds bytes, four per code point at most.
    assert.equal(sizeTreeFromSchema({ type: 'string', maxLength: 10 })?.maxElements, 40);
    assert.equal(sizeTreeFromSchema({ type: 'string', enum: ['a', 'bcd'] })?.maxElements, 3);
  });

  it('a resource root always declares apiVersion, kind and metadata.name', () => {
    const sizes = sizesFromSchema('self', {
      type: 'object',
      properties: { spec: { type: 'string', maxLength: 3 } },
    });
    assert.deepEqual(sizes(['self', 'metadata', 'name'], 'string'), {
      min: 0,
      max: MAX_REQUEST_SIZE_BYTES - 2,
    });
    assert.deepEqual(sizes(['self', 'spec'], 'string'), { min: 0, max: 12 });
    assert.equal(sizes(['self', 'nothing'], 'string'), undefined);
  });
});

// The DRA estimator's declarations (compile.go): driver and domains 63, IDs 32, attribute values 64,
// at most 32 attributes and capacities; any attribute name under a domain has the value bound.
const attr: SizeNode = { maxElements: DRA_SIZES.deviceAttributeMaxValueLength };
const perDevice = DRA_SIZES.resourceSliceMaxAttributesAndCapacitiesPerDevice;
const domains = { maxElements: DRA_SIZES.deviceMaxDomainLength };
const ids = { maxElements: DRA_SIZES.deviceMaxIDLength };
const draSizes = sizesFromTree({
  device: {
    fields: {
      driver: { maxElements: DRA_SIZES.driverNameMaxLength },
      allowMultipleAllocations: { maxElements: 1 },
      attributes: {
        maxElements: perDevice,
        keys: domains,
        items: { maxElements: perDevice, keys: ids, items: attr, anyField: attr },
      },
      capacity: {
        maxElements: perDevice,
        keys: domains,
        items: { maxElements: perDevice, keys: ids, items: {} },
      },
    },
  },
});
const device = T.object('kubernetes.DRADevice', {
  driver: T.string,
  allowMultipleAllocations: T.bool,
  attributes: T.map(T.string, T.map(T.string, T.dyn)),
  capacity: T.map(T.string, T.map(T.string, T.opaque('kubernetes.Quantity'))),
});

// [selector, upstream's estimate, list literals it counts (30 more each here: specCost)]
// prettier-ignore
const DRA: readonly [string, number, number?][] = [
  ['device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))', 6],
  ['device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0"))', 6],
  ['"no-such-domain" in device.attributes', 3],
  ['device.driver == ""', 2],
  ['device.driver == "dra.example.com"', 4],
  ['device.attributes["dra.example.com"].name', 4],
  ['device.attributes["dra.example.com"]["name"]', 4],
  ['cel.bind(dra, device.attributes["dra.example.com"], dra.name)', 15],
  ['device.attributes["dra.example.com"].name > 0', 5],
  ['device.attributes["dra.example.com"].name == "fish"', 5],
  ['device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))', 6],
  [
    '"name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))',
    10,
  ],
  [
    '!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))',
    11,
  ],
  [
    'device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c',
    12,
  ],
  ['device.attributes.exists_one(x, x == "dra.example.com")', 164],
  ['device.attributes["dra.example.com"].exists_one(x, x == "services")', 133],
  ['device.attributes["dra.example.com"].services.split("example").size() >= 2', 19],
  ['device.attributes["dra.example.com"].services.matches("[^a]?sym")', 18],
  ['device.capacity.exists_one(x, x == "dra.example.com")', 164],
  ['device.capacity["dra.example.com"].exists_one(x, x == "memory")', 133],
  [
    "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))",
    85555551,
    // 1 + 10 + 100 + ... + 10^6 literal creations.
    1111111,
  ],
  ['device.allowMultipleAllocations == true', 3],
];

describe('DRA device selectors', () => {
  const env = baseEnvironment({ variables: { device }, sizes: draSizes });
  for (const [expr, max, literals = 0] of DRA) {
    it(expr, () => {
      const r = compile(env, expr);
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.equal(estimateCostExact(r.program).max, specCost(BigInt(max), literals));
    });
  }

  it('the expensive selector is refused at compile time and stopped at run time', () => {
    const expr = DRA.find(([, max]) => max > CEL_SELECTOR_EXPRESSION_MAX_COST)?.[0] ?? '';
    const refused = compile(env, expr, { costLimit: CEL_SELECTOR_EXPRESSION_MAX_COST });
    assert.equal(refused.ok, false);
    const r = compile(env, expr);
    assert.ok(r.ok);
    const run = evaluate(r.program, { device: {} }, { costLimit: CEL_SELECTOR_EXPRESSION_MAX_COST });
    assert.deepEqual(!run.ok && run.error, { message: COST_LIMIT_EXCEEDED_MESSAGE, kind: 'cost' });
  });
});
