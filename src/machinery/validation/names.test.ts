import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../field-errors.ts';
import {
  generateName,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  MAX_GENERATED_NAME_LENGTH,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validateObjectMeta,
  validateObjectMetaUpdate,
  validatePathSegmentName,
} from './index.ts';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const KEY_NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const meta = (m: Record<string, unknown>) => m;

describe('DNS names', () => {
  it('subdomains', () => {
    for (const ok of [
      'a',
      'ab',
      'a-b',
      '0',
      'a.b',
      'a.b.c',
      '1.2.3.4',
      `${'a'.repeat(63)}.${'b'.repeat(189)}`,
    ]) {
      assert.deepEqual(isDNS1123Subdomain(ok), [], ok);
    }
    assert.deepEqual(isDNS1123Subdomain('Foo'), [SUBDOMAIN_MSG]);
    assert.deepEqual(isDNS1123Subdomain('a..b'), [SUBDOMAIN_MSG]);
    assert.deepEqual(isDNS1123Subdomain('-a'), [SUBDOMAIN_MSG]);
    assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
    assert.deepEqual(isDNS1123Subdomain(''), [SUBDOMAIN_MSG]);
  });

  it('labels, with the dots special case', () => {
    assert.deepEqual(isDNS1123Label('my-name'), []);
    assert.deepEqual(isDNS1123Label('a.b'), ['must not contain dots']);
    assert.deepEqual(isDNS1123Label('A'), [LABEL_MSG]);
    assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
    assert.deepEqual(isDNS1123Label('-'.repeat(64)), ['must be no more than 63 characters', LABEL_MSG]);
  });

  it('DNS-1035 labels start with a letter', () => {
    assert.deepEqual(isDNS1035Label('abc-123'), []);
    assert.deepEqual(isDNS1035Label('1abc'), [DNS1035_MSG]);
  });

  it('name validators allow a trailing dash in a prefix', () => {
    assert.deepEqual(nameIsDNSSubdomain('web-', true), []);
    assert.deepEqual(nameIsDNSSubdomain('web-', false), [SUBDOMAIN_MSG]);
    assert.deepEqual(nameIsDNSLabel('a-', true), []);
    assert.deepEqual(nameIsDNS1035Label('x-', true), []);
    assert.deepEqual(nameIsDNSLabel('-', true), [LABEL_MSG]);
  });

  it('path segment names', () => {
    assert.deepEqual(isValidPathSegmentName('.'), ["may not be '.'"]);
    assert.deepEqual(isValidPathSegmentName('..'), ["may not be '..'"]);
    assert.deepEqual(isValidPathSegmentName('a/b%c'), ["may not contain '/'", "may not contain '%'"]);
    assert.deepEqual(isValidPathSegmentName('Any Thing:Else'), []);
    assert.deepEqual(validatePathSegmentName('..', true), []);
    assert.deepEqual(validatePathSegmentName('a%', true), ["may not contain '%'"]);
  });
});

describe('label keys and values', () => {
  it('accepts qualified names', () => {
    for (const ok of [
      'simple',
      'now-with-dashes',
      '1-starts-with-num',
      'a.b_c-d',
      'example.com/MyName',
      'x/y',
      'a'.repeat(63),
    ]) {
      assert.deepEqual(isQualifiedName(ok), [], ok);
    }
  });

  it('reports each part', () => {
    assert.deepEqual(isQualifiedName('-a'), [KEY_NAME_MSG]);
    assert.deepEqual(isQualifiedName(''), ['name part must be non-empty', KEY_NAME_MSG]);
    assert.deepEqual(isQualifiedName('/a'), ['prefix part must be non-empty']);
    assert.deepEqual(isQualifiedName('a/'), ['name part must be non-empty', KEY_NAME_MSG]);
    assert.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 bytes']);
    assert.deepEqual(isQualifiedName('Example.com/a'), [
      "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    assert.deepEqual(isQualifiedName(`${'a'.repeat(254)}/b`), ['prefix part must be no more than 253 bytes']);
    assert.deepEqual(isQualifiedName('a/b/c'), [
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
  });

  it('values', () => {
    for (const ok of ['', 'simple', 'now-with-dashes', 'a_b.c', '1.2.3', 'a'.repeat(63)]) {
      assert.deepEqual(isValidLabelValue(ok), [], ok);
    }
    assert.deepEqual(isValidLabelValue('a b'), [VALUE_MSG]);
    assert.deepEqual(isValidLabelValue('a'.repeat(64)), ['must be no more than 63 bytes']);
    // Limits count UTF-8 bytes: 22 three-byte characters are 66 bytes.
    assert.deepEqual(isValidLabelValue('日'.repeat(22)), ['must be no more than 63 bytes', VALUE_MSG]);
  });
});

describe('generateName', () => {
  it('appends five characters from the name alphabet', () => {
    const name = generateName('web-');
    assert.match(name, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('cuts long prefixes to 58 characters', () => {
    const name = generateName('a'.repeat(100), () => 'xxxxx');
    assert.equal(name, `${'a'.repeat(MAX_GENERATED_NAME_LENGTH)}xxxxx`);
    assert.equal(name.length, 63);
  });
});

describe('validateObjectMeta', () => {
  const namespaced = { namespaced: true, nameValidator: nameIsDNSSubdomain };
  const cluster = { namespaced: false, nameValidator: nameIsDNSSubdomain };
  const strings = (m: Record<string, unknown> | undefined, o = namespaced) =>
    validateObjectMeta(m, o).map(errorString);

  it('accepts a plain object', () => {
    assert.deepEqual(strings(meta({ name: 'foo', namespace: 'default', labels: { app: 'web' } })), []);
    assert.deepEqual(strings(meta({ name: 'foo' }), cluster), []);
  });

  it('requires a name and a namespace', () => {
    assert.deepEqual(strings(meta({})), [
      'metadata.name: Required value: name or generateName is required',
      'metadata.namespace: Required value',
    ]);
    assert.deepEqual(strings(undefined, cluster), [
      'metadata.name: Required value: name or generateName is required',
    ]);
  });

  it('forbids a namespace on cluster-scoped kinds', () => {
    assert.deepEqual(strings(meta({ name: 'n', namespace: 'x' }), cluster), [
      'metadata.namespace: Forbidden: not allowed on this type',
    ]);
  });

  it('checks name, generateName and namespace formats', () => {
    assert.deepEqual(strings(meta({ name: 'Foo', generateName: 'Bar-', namespace: 'a.b' })), [
      `metadata.generateName: Invalid value: "Bar-": ${SUBDOMAIN_MSG}`,
      `metadata.name: Invalid value: "Foo": ${SUBDOMAIN_MSG}`,
      'metadata.namespace: Invalid value: "a.b": must not contain dots',
    ]);
  });

  it('checks labels, annotations, generation and finalizers', () => {
    assert.deepEqual(
      strings(
        meta({
          name: 'foo',
          namespace: 'ns',
          generation: -1,
          labels: { '-bad': 'ok', good: 'not ok' },
          annotations: { 'UPPER.case/OK': 'x', 'a/b/c': 'y' },
          finalizers: ['orphan', 'foregroundDeletion', 'bad/fin/alizer'],
        }),
      ),
      [
        'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
        `metadata.labels: Invalid value: "-bad": ${KEY_NAME_MSG}`,
        `metadata.labels: Invalid value: "not ok": ${VALUE_MSG}`,
        `metadata.annotations: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
        `metadata.finalizers: Invalid value: "bad/fin/alizer": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
        'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","bad/fin/alizer"]: finalizer orphan and foregroundDeletion cannot be both set',
      ],
    );
  });

  it('limits the total annotation size to 256 KiB', () => {
    const big = { 'a.example.com/x': 'v'.repeat(256 * 1024) };
    assert.deepEqual(strings(meta({ name: 'foo', namespace: 'ns', annotations: big })), [
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
    const fits = { a: 'v'.repeat(256 * 1024 - 1) };
    assert.deepEqual(strings(meta({ name: 'foo', namespace: 'ns', annotations: fits })), []);
  });

  it('checks owner references', () => {
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: 'u1', controller: true };
    assert.deepEqual(
      strings(
        meta({
          name: 'foo',
          namespace: 'ns',
          ownerReferences: [
            ref,
            { ...ref, kind: 'Secret', name: 'b' },
            { apiVersion: '', kind: '', name: '', uid: '' },
          ],
        }),
      ),
      [
        'metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"u1","controller":true},{"apiVersion":"v1","kind":"Secret","name":"b","uid":"u1","controller":true},{"apiVersion":"","kind":"","name":"","uid":""}]: Only one reference can have Controller set to true. Found "true" in references for ConfigMap/a and Secret/b',
        'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
      ],
    );
    const event = { apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' };
    assert.deepEqual(strings(meta({ name: 'foo', namespace: 'ns', ownerReferences: [event] })), [
      'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
    ]);
  });

  it('checks managed fields', () => {
    assert.deepEqual(
      strings(
        meta({
          name: 'foo',
          namespace: 'ns',
          managedFields: [{ manager: 'a\x07', operation: 'Merge', fieldsType: 'FieldsV2' }],
        }),
      ),
      [
        'metadata.managedFields[0].operation: Invalid value: "Merge": must be `Apply` or `Update`',
        'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
        'metadata.managedFields[0].manager: Invalid value: "a\\a": invalid character U+0007 (at position 1)',
      ],
    );
  });
});

describe('validateObjectMetaUpdate', () => {
  const old = { name: 'foo', namespace: 'ns', uid: 'u1', resourceVersion: '5', generation: 2 };

  it('accepts an unchanged identity', () => {
    assert.deepEqual(validateObjectMetaUpdate({ ...old, labels: { a: 'b' } }, old), []);
  });

  it('rejects identity changes, a missing resourceVersion and a lower generation', () => {
    const errs = validateObjectMetaUpdate(
      { ...old, name: 'bar', uid: 'u2', resourceVersion: '', generation: 1 },
      old,
    ).map(errorString);
    assert.deepEqual(errs, [
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
      'metadata.generation: Invalid value: 1: must not be decremented',
      'metadata.name: Invalid value: "bar": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
    ]);
  });

  it('rejects new finalizers while the object is being deleted', () => {
    const deleting = { ...old, deletionTimestamp: '2025-01-01T00:00:00Z', finalizers: ['a.io/x'] };
    const errs = validateObjectMetaUpdate(
      { ...deleting, finalizers: ['a.io/x', 'b.io/y', 'a.io/z'] },
      deleting,
    ).map(errorString);
    assert.deepEqual(errs, [
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.io/z", "b.io/y"}',
    ]);
  });

  it('a cleared deletionTimestamp is an immutable-field change printed as null', () => {
    const deleting = { ...old, deletionTimestamp: '2025-01-01T00:00:00Z' };
    assert.deepEqual(validateObjectMetaUpdate({ ...old }, deleting).map(errorString), [
      'metadata.deletionTimestamp: Invalid value: null: field is immutable',
    ]);
  });
});
