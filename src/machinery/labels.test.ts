import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString, newPath } from './field-errors.ts';
import {
  LabelMatcher,
  labelSelectorAsMatcher,
  matcherFromSet,
  newRequirement,
  parseLabelSelector,
  selectsEverything,
  validatedMatcherFromSet,
  validateLabelSelector,
} from './labels.ts';
import { ApiError } from './status.ts';

const OPERATORS = 'in, notin, =, ==, !=, gt, lt';
const VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const KEY_NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

function parseError(selector: string): ApiError {
  try {
    parseLabelSelector(selector);
  } catch (e) {
    assert.ok(e instanceof ApiError, `not an ApiError: ${String(e)}`);
    return e;
  }
  assert.fail(`${JSON.stringify(selector)} parsed`);
}

function matches(selector: string, labels: Record<string, string>): boolean {
  return parseLabelSelector(selector).matches(labels);
}

describe('parsing label selectors', () => {
  it('round-trips valid selectors (spaces dropped)', () => {
    for (const s of [
      'x=a,y=b,z=c',
      '',
      'x!=a,y=b',
      'x=',
      'x= ',
      'x=,z= ',
      'x= ,z= ',
      '!x',
      'x>1',
      'x>1,z<5',
    ]) {
      assert.equal(parseLabelSelector(s).toString(), s.replaceAll(' ', ''), s);
    }
  });

  it('parses every operator and sorts requirements by key', () => {
    const m = parseLabelSelector('g,!h,e in (y,x),f notin (z),a=b,c!=d,i==j');
    assert.equal(m.toString(), 'a=b,c!=d,e in (x,y),f notin (z),g,!h,i==j');
    assert.deepEqual(
      m.requirements.map((r) => [r.key, r.operator, r.values]),
      [
        ['a', '=', ['b']],
        ['c', '!=', ['d']],
        ['e', 'in', ['x', 'y']],
        ['f', 'notin', ['z']],
        ['g', 'exists', []],
        ['h', '!', []],
        ['i', '==', ['j']],
      ],
    );
  });

  it('reads value sets as upstream does: empty entries, repeats, keywords as values', () => {
    const values = (s: string) => parseLabelSelector(s).requirements[0].values;
    assert.deepEqual(values('x in (abc,)'), ['', 'abc']);
    assert.deepEqual(values('x in (abc,abc)'), ['abc']);
    assert.deepEqual(values('x in ()'), ['']);
    assert.deepEqual(values('x in (a,,,,,,)'), ['', 'a']);
    assert.deepEqual(values('x notin (, a)'), ['', 'a']);
    assert.deepEqual(values('x notin ( )'), ['']);
    assert.deepEqual(values('a in (x,y,notin, z,in)'), ['in', 'notin', 'x', 'y', 'z']);
    assert.deepEqual(values('x  notin\t\t(abc,def)'), ['abc', 'def']);
    assert.equal(parseLabelSelector('in in (in)').toString(), 'in in (in)');
    assert.equal(
      parseLabelSelector('0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)').toString(),
      '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)',
    );
  });

  const bad: [string, string][] = [
    // The value is checked as soon as its requirement is read, before the stray `=` is seen.
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${VALUE_MSG}`],
    ['x=a,y=b=c', "found '=', expected: ',' or 'end of string'"],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    [
      'x<a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'x>99999999999999999999',
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    ['x,,y', "found ',', expected: identifier after ','"],
    [',x,y', "found ',', expected: !, identifier, or 'end of string'"],
    ['x nott in (y)', `unable to parse requirement: found 'nott', expected: ${OPERATORS}`],
    ['a in (xyz),', "found '', expected: identifier after ','"],
    ['a in (xyz)b notin ()', "found 'b', expected: ',' or 'end of string'"],
    ['a in (xyz abc)', "unable to parse requirement: found 'abc', expected: ',' or ')'"],
    ['a notin(', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['a (', `unable to parse requirement: found '(', expected: ${OPERATORS}`],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a=!b', "unable to parse requirement: found '!', expected: identifier"],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a b', `unable to parse requirement: found 'b', expected: ${OPERATORS}`],
    ['-a=b', `unable to parse requirement: <nil>: Invalid value: "-a": ${KEY_NAME_MSG}`],
    ['a=-b', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${VALUE_MSG}`],
    [
      `a=${'v'.repeat(64)}`,
      `unable to parse requirement: values[0][a]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes`,
    ],
    [
      'a in (-x,-y)',
      `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${VALUE_MSG}, values[1][a]: Invalid value: "-y": ${VALUE_MSG}]`,
    ],
  ];
  for (const [selector, message] of bad) {
    it(`rejects ${JSON.stringify(selector)} with upstream's message`, () => {
      const e = parseError(selector);
      assert.equal(e.status.code, 400);
      assert.equal(e.status.reason, 'BadRequest');
      assert.equal(e.status.message, message);
    });
  }
});

describe('matching', () => {
  it('follows upstream semantics per operator', () => {
    assert.equal(matches('', { x: 'y' }), true);
    assert.equal(matches('x=y', { x: 'y' }), true);
    assert.equal(matches('x=y,z=w', { x: 'y', z: 'w' }), true);
    assert.equal(matches('x!=y,z!=w', { x: 'z', z: 'a' }), true);
    assert.equal(matches('notin=in', { notin: 'in' }), true);
    assert.equal(matches('x', { x: 'z' }), true);
    assert.equal(matches('!x', { y: 'z' }), true);
    assert.equal(matches('x>1', { x: '2' }), true);
    assert.equal(matches('x<1', { x: '0' }), true);
    assert.equal(matches('x=z', {}), false);
    assert.equal(matches('x=y', { x: 'z' }), false);
    assert.equal(matches('x!=y,z!=w', { x: 'z', z: 'w' }), false);
    assert.equal(matches('x', { y: 'z' }), false);
    assert.equal(matches('!x', { x: 'z' }), false);
    assert.equal(matches('x>1', { x: '0' }), false);
    assert.equal(matches('x<1', { x: '2' }), false);
    assert.equal(matches('x>1', { x: 'abc' }), false);
    assert.equal(matches('x>1', {}), false);
    assert.equal(matches('x!=y', {}), true);
    assert.equal(matches('x notin (a)', {}), true);
    assert.equal(matches('x in (a,b)', { x: 'b' }), true);
    assert.equal(matches('x=', { x: '' }), true);
  });

  it('compares integers beyond 2^53 exactly', () => {
    assert.equal(matches('x>9007199254740992', { x: '9007199254740993' }), true);
  });

  it('an undefined label map has no labels', () => {
    assert.equal(parseLabelSelector('!x').matches(undefined), true);
  });

  it('requiresExactMatch and selectsEverything', () => {
    const m = parseLabelSelector('a=b,c in (d),e in (f,g),h!=i');
    assert.equal(m.requiresExactMatch('a'), 'b');
    assert.equal(m.requiresExactMatch('c'), 'd');
    assert.equal(m.requiresExactMatch('e'), undefined);
    assert.equal(m.requiresExactMatch('h'), undefined);
    assert.equal(selectsEverything(parseLabelSelector('')), true);
    assert.equal(selectsEverything(m), false);
    assert.equal(selectsEverything(LabelMatcher.nothing()), false);
  });

  it('sets: unvalidated and validated', () => {
    assert.equal(matcherFromSet({ b: '2', a: '1' }).toString(), 'a=1,b=2');
    assert.equal(matcherFromSet({ a: '1' }).matches({ a: '1', b: '2' }), true);
    assert.throws(
      () => validatedMatcherFromSet({ a: '-' }),
      (e: unknown) => e instanceof ApiError && e.status.code === 400,
    );
  });
});

describe('structured LabelSelector', () => {
  it('a missing selector selects nothing, an empty one everything', () => {
    assert.equal(labelSelectorAsMatcher(undefined).matches({}), false);
    assert.equal(labelSelectorAsMatcher(null).matchesNothing(), true);
    assert.equal(labelSelectorAsMatcher({}).matches({ any: 'thing' }), true);
    assert.equal(labelSelectorAsMatcher({ matchLabels: {}, matchExpressions: [] }).empty(), true);
  });

  it('converts matchLabels and matchExpressions', () => {
    const m = labelSelectorAsMatcher({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front', 'back'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'owner', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    assert.equal(m.toString(), 'app=web,env notin (dev),!legacy,owner,tier in (back,front)');
    assert.equal(m.matches({ app: 'web', tier: 'front', owner: 'x' }), true);
    assert.equal(m.matches({ app: 'web', tier: 'front', owner: 'x', env: 'dev' }), false);
  });

  it('rejects bad operators and values with upstream messages', () => {
    const message = (ps: Parameters<typeof labelSelectorAsMatcher>[0]) => {
      try {
        labelSelectorAsMatcher(ps);
      } catch (e) {
        return (e as ApiError).status.message;
      }
      return 'no error';
    };
    assert.equal(
      message({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }),
      '"Foo" is not a valid label selector operator',
    );
    assert.equal(
      message({ matchExpressions: [{ key: 'a', operator: 'In' }] }),
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    );
    assert.equal(
      message({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }),
      'values: Invalid value: ["x"]: values set must be empty for exists and does not exist',
    );
    assert.equal(message({ matchLabels: { '-a': 'b' } }), `key: Invalid value: "-a": ${KEY_NAME_MSG}`);
  });

  it('newRequirement reports unsupported operators', () => {
    assert.throws(
      () => newRequirement('a', 'like', ['b']),
      (e: unknown) =>
        e instanceof ApiError &&
        e.status.message ===
          'operator: Unsupported value: "like": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    );
  });

  it('validateLabelSelector gives field errors for objects', () => {
    const errs = validateLabelSelector(
      {
        matchLabels: { ok: '-bad' },
        matchExpressions: [
          { key: 'a', operator: 'In' },
          { key: 'b', operator: 'Exists', values: ['x'] },
          { key: 'c', operator: 'Near' },
        ],
      },
      newPath('spec', 'selector'),
    ).map(errorString);
    assert.deepEqual(errs, [
      `spec.selector.matchLabels: Invalid value: "-bad": ${VALUE_MSG}`,
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector.matchExpressions[2].operator: Invalid value: "Near": not a valid selector operator',
    ]);
  });
});
