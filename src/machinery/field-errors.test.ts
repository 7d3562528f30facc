import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  aggregateMessage,
  deepEqual,
  duplicate,
  errorBody,
  errorString,
  type FieldError,
  forbidden,
  goFloat,
  goJson,
  goQuote,
  immutable,
  internalFieldError,
  invalid,
  newPath,
  notFound,
  notSupported,
  required,
  toCauses,
  tooLong,
  tooMany,
  typeInvalid,
  validateImmutableField,
} from './field-errors.ts';

const f = 'path.to.field';

describe('field paths', () => {
  it('render children, indices and keys as upstream does', () => {
    const root = newPath('root');
    assert.equal(root.toString(), 'root');
    const second = root.child('first', 'second');
    assert.equal(second.toString(), 'root.first.second');
    assert.equal(second.index(0).child('third').index(93).toString(), 'root.first.second[0].third[93]');
    assert.equal(second.index(0).key('key').toString(), 'root.first.second[0][key]');
    assert.equal(
      newPath('metadata').child('labels').key('app.example.com/name').toString(),
      'metadata.labels[app.example.com/name]',
    );
    assert.equal(newPath('spec', 'containers').index(0).child('name').toString(), 'spec.containers[0].name');
  });

  it('paths are immutable: branching from a parent leaves siblings alone', () => {
    const spec = newPath('spec');
    const a = spec.child('a');
    const b = spec.child('b');
    assert.deepEqual([spec.toString(), a.toString(), b.toString()], ['spec', 'spec.a', 'spec.b']);
  });

  it('a null path prints as <nil>', () => {
    assert.equal(invalid(null, 'x', 'd').field, '<nil>');
  });
});

describe('error messages', () => {
  const cases: [string, FieldError, string][] = [
    ['required', required(newPath(f), 'the details'), 'path.to.field: Required value: the details'],
    [
      'required without detail',
      required(newPath('metadata', 'namespace')),
      'metadata.namespace: Required value',
    ],
    ['forbidden', forbidden(newPath(f), 'the details'), 'path.to.field: Forbidden: the details'],
    ['too long (1)', tooLong(newPath(f), 1), 'path.to.field: Too long: may not be more than 1 byte'],
    ['too long (2)', tooLong(newPath(f), 2), 'path.to.field: Too long: may not be more than 2 bytes'],
    ['too long (-1)', tooLong(newPath(f), -1), 'path.to.field: Too long: value is too long'],
    ['too many (2, 1)', tooMany(newPath(f), 2, 1), 'path.to.field: Too many: 2: must have at most 1 item'],
    ['too many (3, 2)', tooMany(newPath(f), 3, 2), 'path.to.field: Too many: 3: must have at most 2 items'],
    ['too many (2, -1)', tooMany(newPath(f), 2, -1), 'path.to.field: Too many: 2: has too many items'],
    ['too many (-1, 1)', tooMany(newPath(f), -1, 1), 'path.to.field: Too many: must have at most 1 item'],
    [
      'internal error',
      internalFieldError(newPath(f), new Error('the error')),
      'path.to.field: Internal error: the error',
    ],
    [
      'invalid string',
      invalid(newPath(f), 'the value', 'the details'),
      'path.to.field: Invalid value: "the value": the details',
    ],
    [
      'invalid int',
      invalid(newPath(f), -42, 'the details'),
      'path.to.field: Invalid value: -42: the details',
    ],
    [
      'invalid bool',
      invalid(newPath(f), true, 'the details'),
      'path.to.field: Invalid value: true: the details',
    ],
    [
      'invalid object',
      invalid(newPath(f), { stringField: 'stringval', intField: 9376, boolField: true }, 'the details'),
      'path.to.field: Invalid value: {"stringField":"stringval","intField":9376,"boolField":true}: the details',
    ],
    [
      'invalid list',
      invalid(newPath(f), ['one', 'two', 'three'], 'the details'),
      'path.to.field: Invalid value: ["one","two","three"]: the details',
    ],
    [
      'invalid null',
      invalid(newPath(f), null, 'the details'),
      'path.to.field: Invalid value: null: the details',
    ],
    [
      'invalid undefined',
      invalid(newPath(f), undefined, 'the details'),
      'path.to.field: Invalid value: null: the details',
    ],
    ['invalid without detail', invalid(newPath(f), 'v'), 'path.to.field: Invalid value: "v"'],
    ['invalid float', invalid(newPath(f), 0.5, 'd'), 'path.to.field: Invalid value: 0.5: d'],
    ['not found', notFound(newPath(f), 'the value'), 'path.to.field: Not found: "the value"'],
    [
      'not supported',
      notSupported(newPath(f), 'the value', ['val1', 'val2']),
      'path.to.field: Unsupported value: "the value": supported values: "val1", "val2"',
    ],
    [
      'not supported, no list',
      notSupported(newPath(f), 'bar', []),
      'path.to.field: Unsupported value: "bar"',
    ],
    ['duplicate', duplicate(newPath(f), 'the value'), 'path.to.field: Duplicate value: "the value"'],
    [
      'type invalid',
      typeInvalid(newPath(f), 'the value', 'the details'),
      'path.to.field: Invalid value: "the value": the details',
    ],
    [
      'immutable',
      immutable(newPath('spec', 'selector'), 'x'),
      'spec.selector: Invalid value: "x": field is immutable',
    ],
  ];
  for (const [name, err, want] of cases) {
    it(name, () => assert.equal(errorString(err), want));
  }

  it('an unknown type reports itself as an internal error', () => {
    const e = { type: 'not real', field: f, badValue: 'x', detail: 'the details' } as unknown as FieldError;
    assert.equal(
      errorString(e),
      'path.to.field: Internal error: unhandled error code: <unknown error "not real">: please report this: the details',
    );
  });

  it('the error types are upstream cause reasons', () => {
    assert.deepEqual(
      [
        required(f),
        invalid(f, 1),
        notSupported(f, 1, []),
        duplicate(f, 1),
        forbidden(f),
        tooLong(f, 1),
        tooMany(f, 1, 1),
      ].map((e) => e.type),
      [
        'FieldValueRequired',
        'FieldValueInvalid',
        'FieldValueNotSupported',
        'FieldValueDuplicate',
        'FieldValueForbidden',
        'FieldValueTooLong',
        'FieldValueTooMany',
      ],
    );
  });
});

describe('value rendering', () => {
  it('goQuote escapes like strconv.Quote', () => {
    assert.equal(goQuote('plain'), '"plain"');
    assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(goQuote('\n\t\r\x07\b\f\v'), '"\\n\\t\\r\\a\\b\\f\\v"');
    assert.equal(goQuote('\x00\x1b\x7f'), '"\\x00\\x1b\\x7f"');
    assert.equal(goQuote('héllo 日本 😀'), '"héllo 日本 😀"');
    assert.equal(goQuote('\u00a0\u2028\u200b'), '"\\u00a0\\u2028\\u200b"');
    assert.equal(goQuote('\ud800'), '"\ufffd"');
  });

  it('goFloat prints like %v of a float64', () => {
    assert.deepEqual([1e6, 123456.7, 0.5, 1e-5, 0.0001, 1.5e21, -2.25, 1234567.0].map(goFloat), [
      '1e+06',
      '123456.7',
      '0.5',
      '1e-05',
      '0.0001',
      '1.5e+21',
      '-2.25',
      '1.234567e+06',
    ]);
  });

  it('goJson escapes HTML-sensitive characters as encoding/json does', () => {
    assert.equal(goJson({ a: '<b>&' }), '{"a":"\\u003cb\\u003e\\u0026"}');
    assert.equal(goJson(undefined), 'null');
  });
});

describe('lists', () => {
  it('aggregates one error bare, several in brackets, repeats once', () => {
    const a = invalid(newPath('f'), 'v', 'd');
    const b = required(newPath('g'));
    assert.equal(aggregateMessage([]), '');
    assert.equal(aggregateMessage([a]), 'f: Invalid value: "v": d');
    assert.equal(aggregateMessage([a, a]), 'f: Invalid value: "v": d');
    assert.equal(aggregateMessage([a, b, a]), '[f: Invalid value: "v": d, g: Required value]');
  });

  it('toCauses gives reason, message without field, and field', () => {
    assert.deepEqual(
      toCauses([invalid(newPath('spec', 'replicas'), -1, 'must be greater than or equal to 0')]),
      [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: -1: must be greater than or equal to 0',
          field: 'spec.replicas',
        },
      ],
    );
    assert.equal(errorBody(required('x', 'd')), 'Required value: d');
  });

  it('validateImmutableField compares deeply, treating undefined as null', () => {
    assert.deepEqual(validateImmutableField({ a: [1, 2] }, { a: [1, 2] }, 'spec.x'), []);
    assert.equal(validateImmutableField({ a: [1] }, { a: [2] }, 'spec.x').length, 1);
    assert.equal(deepEqual(undefined, null), true);
    assert.equal(deepEqual({ a: undefined }, {}), true);
    assert.equal(deepEqual([1], { 0: 1 }), false);
  });
});
