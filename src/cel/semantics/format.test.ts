// Expected values are upstream's: the examples and tests of apiserver's CEL format library (1.35),
// and results recorded from k8s.io/apiserver v0.35.0.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatEquals, formatValidate, NAMED_FORMATS, namedFormat } from './format.ts';

const validate = (key: string, s: string) => formatValidate(namedFormat(key)!, s);

describe('format library', () => {
  it('has exactly upstream’s named formats', () => {
    assert.deepEqual([...NAMED_FORMATS.keys()].sort(), [
      'byte',
      'date',
      'datetime',
      'dns1035Label',
      'dns1035LabelPrefix',
      'dns1123Label',
      'dns1123LabelPrefix',
      'dns1123Subdomain',
      'dns1123SubdomainPrefix',
      'labelValue',
      'qualifiedName',
      'uri',
      'uuid',
    ]);
    assert.equal(namedFormat('unknown'), undefined);
    assert.ok(formatEquals(namedFormat('uri')!, namedFormat('uri')!));
    assert.ok(!formatEquals(namedFormat('uri')!, namedFormat('uuid')!));
  });

  it('accepts the documented examples', () => {
    const ok: [string, string][] = [
      ['dns1123Label', 'my-label-name'],
      ['dns1123Subdomain', 'apiextensions.k8s.io'],
      ['dns1035Label', 'my-label-name'],
      ['qualifiedName', 'apiextensions.k8s.io/v1beta1'],
      ['qualifiedName', 'my.name'],
      ['dns1123LabelPrefix', 'my-label-prefix-'],
      ['dns1123SubdomainPrefix', 'mysubdomain.prefix.-'],
      ['dns1035LabelPrefix', 'my-label-prefix-'],
      ['labelValue', 'my-cool-label-Value'],
      ['uri', 'http://example.com'],
      ['uuid', '123e4567-e89b-12d3-a456-426614174000'],
      ['byte', 'aGVsbG8='],
      ['date', '2021-01-01'],
      ['date', '2020-02-29'],
      ['datetime', '2021-01-01T00:00:00Z'],
      ['datetime', '2020-01-01t23:59:59.123+05:30'],
    ];
    for (const [key, s] of ok) assert.deepEqual(validate(key, s), [], `${key} ${s}`);
  });

  it("answers upstream's messages", () => {
    const label =
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    const subdomain =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const dns1035 =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    assert.deepEqual(validate('dns1123Label', 'contains a space'), [label]);
    assert.deepEqual(validate('dns1123LabelPrefix', 'contains a space-'), [label]);
    assert.deepEqual(validate('dns1123Subdomain', 'contains a space'), [subdomain]);
    assert.deepEqual(validate('dns1123SubdomainPrefix', 'contains a space-'), [subdomain]);
    assert.deepEqual(validate('dns1035Label', 'contains a space'), [dns1035]);
    assert.deepEqual(validate('dns1035LabelPrefix', 'contains a space-'), [dns1035]);
    assert.deepEqual(validate('qualifiedName', 'contains a space'), [
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    assert.deepEqual(validate('labelValue', 'my-cool-label-Value!!\n\n!!!'), [
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
    assert.deepEqual(validate('uri', '../relative'), ['parse "../relative": invalid URI for request']);
    assert.deepEqual(validate('uuid', 'not-a-uuid'), ['does not match the UUID format']);
    assert.deepEqual(validate('byte', 'aGVsbG8'), ['invalid base64']);
    assert.deepEqual(validate('byte', ''), ['invalid base64']);
    assert.deepEqual(validate('date', '2020-01-32'), ['invalid date']);
    assert.deepEqual(validate('date', '2021-02-29'), ['invalid date']);
    assert.deepEqual(validate('date', '+202-01-01'), ['invalid date']);
    assert.deepEqual(validate('datetime', '2020-01-32T00:00:00Z'), ['invalid datetime']);
    assert.deepEqual(validate('datetime', '2020-01-01T24:00:00Z'), ['invalid datetime']);
  });
});
