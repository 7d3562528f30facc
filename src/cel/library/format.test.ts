// Upstream's documented examples for the format library (k8s.io/apiserver/pkg/cel/library
// format.go and format_test.go, v0.35.0), messages as kube-apiserver 1.35 answers them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../compile.ts';
import { Optional } from '../engine.ts';
import { createEnvironment } from '../environment.ts';
import { evaluate } from '../evaluate.ts';
import { NAMED_FORMATS } from '../semantics/index.ts';
import { T } from '../types.ts';
import { formatLibrary } from './format.ts';

const env = createEnvironment({ variables: { name: T.string }, libraries: [formatLibrary] });

function value(expr: string, name = ''): unknown {
  const c = compile(env, expr);
  if (!c.ok) throw new Error(c.error.message);
  const r = evaluate(c.program, { name });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
/** validate()'s answer: undefined for optional.none, else the messages. */
function messages(expr: string): unknown {
  const v = value(expr);
  assert.ok(v instanceof Optional, `${expr} is not an optional`);
  return v.hasValue() ? v.value() : undefined;
}

const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_LABEL =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('format library', () => {
  it('valid strings answer optional.none', () => {
    for (const expr of [
      'format.dns1123Label().validate("my-label-name")',
      'format.dns1123Subdomain().validate("apiextensions.k8s.io")',
      'format.dns1035Label().validate("my-label-name")',
      'format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")',
      'format.dns1123LabelPrefix().validate("my-label-prefix-")',
      'format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")',
      'format.dns1035LabelPrefix().validate("my-label-prefix-")',
      'format.uri().validate("http://example.com")',
      'format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")',
      'format.byte().validate("aGVsbG8=")',
      'format.date().validate("2021-01-01")',
      'format.datetime().validate("2021-01-01T00:00:00Z")',
      'format.dns1123Subdomain().validate("example.com")',
      'format.qualifiedName().validate("my.name")',
      'format.date().validate("2020-01-01")',
      'format.datetime().validate("2020-01-01T00:00:00Z")',
      'format.labelValue().validate("my-cool-label-Value")',
      "format.labelValue().validate('')",
    ]) {
      assert.equal(messages(expr), undefined, expr);
    }
  });

  it('invalid strings answer the messages', () => {
    const facts: [string, string][] = [
      ['format.dns1123Label().validate("contains a space")', DNS1123_LABEL],
      ['format.dns1123Subdomain().validate("contains a space")', DNS1123_SUBDOMAIN],
      ['format.dns1035Label().validate("contains a space")', DNS1035_LABEL],
      [
        'format.qualifiedName().validate("contains a space")',
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
      ['format.dns1123LabelPrefix().validate("contains a space-")', DNS1123_LABEL],
      ['format.dns1123SubdomainPrefix().validate("contains a space-")', DNS1123_SUBDOMAIN],
      ['format.dns1035LabelPrefix().validate("contains a space-")', DNS1035_LABEL],
      ['format.byte().validate("aGVsbG8")', 'invalid base64'],
      ['format.date().validate("2020-01-32")', 'invalid date'],
      ['format.datetime().validate("2020-01-32T00:00:00Z")', 'invalid datetime'],
      [
        'format.labelValue().validate("my-cool-label-Value!!\\n\\n!!!")',
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
      ['format.uri().validate("example.com")', 'parse "example.com": invalid URI for request'],
      ['format.uuid().validate("x")', 'does not match the UUID format'],
      [
        'format.dns1123Label().validate("a-very-long-label-name-that-goes-on-and-on-beyond-sixty-three-chars")',
        'must be no more than 63 characters',
      ],
    ];
    for (const [expr, want] of facts) assert.deepEqual(messages(expr), [want], expr);
  });

  it('format.named looks a format up by name', () => {
    assert.equal(value('format.named("unknown").hasValue()'), false);
    assert.deepEqual(value('format.named("dns1123Label").value().validate("Nope").value()'), [DNS1123_LABEL]);
    assert.equal(value('format.named(name).hasValue()', 'uri'), true);
    // The doc comment's rule and messageExpression.
    assert.equal(value('!format.dns1123Label().validate(name).hasValue()', 'web-0'), true);
    assert.equal(value('format.dns1123Label().validate(name).value().join("\\n")', 'Web'), DNS1123_LABEL);
  });

  it('costs what kube-apiserver 1.35 charges (its figures for these calls)', () => {
    const facts: [string, number][] = [
      ['format.uri().validate("example.com")', 553],
      ['format.dns1123Label().validate("")', 9],
      [
        'format.dns1123Label().validate("a-very-long-label-name-that-goes-on-and-on-beyond-sixty-three-chars")',
        57,
      ],
      ['format.named("dns1123Label").value() == format.dns1123Label()', 4],
    ];
    for (const [expr, want] of facts) {
      const c = compile(env, expr);
      assert.ok(c.ok, expr);
      assert.equal(evaluate(c.program, { name: '' }).cost, want, expr);
    }
  });

  it('every named format: lookup, equality with its constructor, inequality with the others', () => {
    const keys = [...NAMED_FORMATS.keys()];
    assert.equal(keys.length, 13);
    for (const a of keys) {
      assert.equal(value(`format.named("${a}").hasValue()`), true, a);
      assert.equal(value(`format.named("${a}").value() == format.${a}()`), true, a);
      for (const b of keys)
        if (a !== b) assert.equal(value(`format.${a}() == format.${b}()`), false, `${a} ${b}`);
    }
  });
});
