import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultFieldLabelConversion,
  escapeFieldValue,
  FieldMatcher,
  fieldMatcherFromSet,
  objectMetaFieldsSet,
  parseFieldSelector,
  supportedFieldLabels,
  unescapeFieldValue,
} from './fields.ts';
import { ApiError } from './status.ts';

function failure(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, `not an ApiError: ${String(e)}`);
    return e;
  }
  assert.fail('no error');
}

describe('escaping', () => {
  const pairs: [string, string][] = [
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
  ];
  for (const [raw, escaped] of pairs) {
    it(`${JSON.stringify(raw)} <-> ${JSON.stringify(escaped)}`, () => {
      assert.equal(escapeFieldValue(raw), escaped);
      assert.equal(unescapeFieldValue(escaped), raw);
    });
  }

  it('rejects invalid escapes and bare separators with upstream messages', () => {
    assert.equal(
      failure(() => unescapeFieldValue('\\')).status.message,
      'invalid field selector: invalid escape sequence: \\',
    );
    assert.equal(
      failure(() => unescapeFieldValue('\\\\\\')).status.message,
      'invalid field selector: invalid escape sequence: \\',
    );
    assert.equal(
      failure(() => unescapeFieldValue('\\a')).status.message,
      'invalid field selector: invalid escape sequence: \\a',
    );
    // Upstream prints the offending rune as a number.
    assert.equal(
      failure(() => unescapeFieldValue('a=b')).status.message,
      'invalid field selector: unescaped character in value: 61',
    );
    assert.equal(failure(() => unescapeFieldValue('a,b')).status.code, 400);
  });
});

describe('parsing field selectors', () => {
  it('accepts upstream good strings', () => {
    assert.equal(parseFieldSelector('x=a,y=b,z=c').toString(), 'x=a,y=b,z=c');
    assert.equal(parseFieldSelector('').empty(), true);
    assert.equal(parseFieldSelector('x!=a,y=b').toString(), 'x!=a,y=b');
    assert.equal(parseFieldSelector('x=a||y\\=b').requirements[0].value, 'a||y=b');
    assert.equal(parseFieldSelector('x=a\\=\\=b').requirements[0].value, 'a==b');
  });

  it('treats == as =, sorts terms and skips empty ones', () => {
    const m = parseFieldSelector('metadata.namespace==ns,,metadata.name!=x,');
    assert.deepEqual(m.requirements, [
      { field: 'metadata.name', operator: '!=', value: 'x' },
      { field: 'metadata.namespace', operator: '=', value: 'ns' },
    ]);
    assert.equal(m.toString(), 'metadata.name!=x,metadata.namespace=ns');
  });

  it('splits on the first operator and keeps escaped commas', () => {
    // Terms sort as text: `k2=...` comes before `k=...` since '2' < '='.
    assert.equal(parseFieldSelector('k=\\,,k2=v2').toString(), 'k2=v2,k=\\,');
    assert.deepEqual(
      parseFieldSelector('함=수,목=록').requirements.map((r) => r.field),
      ['목', '함'],
    );
  });

  it('rejects terms without an operator', () => {
    const e = failure(() => parseFieldSelector('metadata.name=a,b'));
    assert.equal(e.status.code, 400);
    assert.equal(e.status.reason, 'BadRequest');
    assert.equal(e.status.message, "invalid selector: 'metadata.name=a,b'; can't understand 'b'");
  });

  it('rejects bare separators in values', () => {
    assert.equal(
      failure(() => parseFieldSelector('a=b=c')).status.message,
      'invalid field selector: unescaped character in value: 61',
    );
    assert.equal(
      failure(() => parseFieldSelector('k=\\')).status.message,
      'invalid field selector: invalid escape sequence: \\',
    );
  });
});

describe('matching fields', () => {
  const fields = { 'metadata.name': 'foo', 'metadata.namespace': 'ns', 'spec.nodeName': '' };

  it('equal and not-equal terms, missing fields read as empty', () => {
    assert.equal(parseFieldSelector('metadata.name=foo').matches(fields), true);
    assert.equal(parseFieldSelector('metadata.name=bar').matches(fields), false);
    assert.equal(parseFieldSelector('metadata.name!=bar,metadata.namespace==ns').matches(fields), true);
    assert.equal(parseFieldSelector('spec.nodeName=').matches(fields), true);
    assert.equal(parseFieldSelector('status.phase=').matches(fields), true);
    assert.equal(parseFieldSelector('status.phase!=Running').matches(fields), true);
    assert.equal(parseFieldSelector('').matches(fields), true);
    assert.equal(FieldMatcher.nothing().matches(fields), false);
  });

  it('requiresExactMatch finds equality terms only', () => {
    const m = parseFieldSelector('metadata.name=foo,metadata.namespace!=ns');
    assert.equal(m.requiresExactMatch('metadata.name'), 'foo');
    assert.equal(m.requiresExactMatch('metadata.namespace'), undefined);
  });

  it('sets and object metadata', () => {
    assert.equal(fieldMatcherFromSet({ a: 'b' }).matches({ a: 'b' }), true);
    assert.equal(fieldMatcherFromSet(undefined).empty(), true);
    assert.deepEqual(objectMetaFieldsSet({ name: 'n', namespace: 'ns' }, true), {
      'metadata.name': 'n',
      'metadata.namespace': 'ns',
    });
    assert.deepEqual(objectMetaFieldsSet({ name: 'n' }, false), { 'metadata.name': 'n' });
  });
});

describe('field label conversion', () => {
  it('the default accepts only name and namespace', () => {
    const m = parseFieldSelector('metadata.name=a').transform(defaultFieldLabelConversion);
    assert.equal(m.toString(), 'metadata.name=a');
    const e = failure(() => parseFieldSelector('spec.nodeName=a').transform(defaultFieldLabelConversion));
    assert.equal(e.status.code, 400);
    assert.equal(
      e.status.message,
      '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });

  it('a kind with its own labels says which one is not supported', () => {
    const conv = supportedFieldLabels(['metadata.name', 'metadata.namespace', 'spec.nodeName']);
    assert.equal(parseFieldSelector('spec.nodeName=n1').transform(conv).toString(), 'spec.nodeName=n1');
    assert.equal(
      failure(() => parseFieldSelector('status.phase=x').transform(conv)).status.message,
      'field label not supported: status.phase',
    );
  });

  it('drops terms a conversion maps to nothing and turns plain errors into BadRequest', () => {
    const m = parseFieldSelector('a=1,b=2').transform((f, v) => (f === 'a' ? ['', ''] : [f, v]));
    assert.equal(m.toString(), 'b=2');
    const e = failure(() =>
      parseFieldSelector('a=1').transform(() => {
        throw new Error('nope');
      }),
    );
    assert.deepEqual([e.status.code, e.status.message], [400, 'nope']);
  });
});
