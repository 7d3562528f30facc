// Reading one member of an object's JSON without parsing the rest: the answer must be what a full
// JSON.parse gives, however the other members' strings are spelled.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EncodedObject, encodeBody, metadataOfBody } from './encoded.ts';
import { memberOf, walkMembers } from './json-members.ts';

const tricky: Record<string, unknown>[] = [
  { metadata: { name: 'a', uid: 'u' }, data: { x: 'y' } },
  // Metadata after members whose strings hold braces, brackets, quotes and escapes.
  {
    data: { '}': '{', '"': '"}', '\\': '\\"', 'a\\"}': ['}', ']', '\\\\"'] },
    spec: [{ a: [1, 2, { b: '}}}' }] }, null, true, false, -1.5e-7],
    metadata: { name: 'm', labels: { '"quoted"': '{x}' }, finalizers: ['a/b'] },
    after: 'x',
  },
  // Metadata last, after a number and a literal.
  { n: 12, t: true, z: null, metadata: { ownerReferences: [{ uid: 'o', name: 'own"er' }] } },
  // Metadata missing, and keys that only look like it.
  { data: { metadata: { name: 'inner' } }, '"metadata"': 1, metadat: 2 },
  // Metadata that is not an object.
  { metadata: null },
  { metadata: 'text' },
  // Empty objects, unicode and control characters.
  {},
  { metadata: {} },
  { x: '\u2028\u0000\t\n', metadata: { name: 'é😀', annotations: { k: '\ud800' } } },
  // A key spelled with an escape (JSON.stringify escapes only what it must, but the scan allows it).
  { 'me\ntadata': 1, metadata: { name: 'n' } },
];

describe('memberOf', () => {
  for (const [i, obj] of tricky.entries()) {
    it(`reads metadata alone as JSON.parse would (case ${i})`, () => {
      const text = JSON.stringify(obj);
      assert.deepEqual(memberOf(text, 'metadata'), (JSON.parse(text) as Record<string, unknown>).metadata);
    });
  }

  for (const [i, obj] of tricky.entries()) {
    it(`picks metadata fields alone as JSON.parse would (case ${i})`, () => {
      const text = JSON.stringify(obj);
      const only = new Set(['name', 'finalizers', 'ownerReferences', 'labels']);
      const meta = (JSON.parse(text) as Record<string, unknown>).metadata;
      const expected =
        meta === null || typeof meta !== 'object'
          ? meta
          : Object.fromEntries(Object.entries(meta).filter(([k]) => only.has(k)));
      assert.deepEqual(memberOf(text, 'metadata', only), expected);
    });
  }

  it('follows whitespace and escaped keys in hand-written JSON', () => {
    const text = ' { "data" : { "k" : "}\\"" } ,\n "meta\\u0064ata" : { "name" : "w" } } ';
    assert.deepEqual(memberOf(text, 'metadata'), { name: 'w' });
  });

  it('parses the whole text when the scan does not follow it, failing as JSON.parse fails', () => {
    assert.throws(() => memberOf('{"metadata":{"name":"x"', 'metadata'), SyntaxError);
    assert.throws(() => memberOf('{"a":"unterminated}', 'metadata'), SyntaxError);
    assert.equal(memberOf('[1,2]', 'metadata'), undefined);
    assert.equal(memberOf('"metadata"', 'metadata'), undefined);
  });

  it('stops at the member it looks for', () => {
    const keys: string[] = [];
    const followed = walkMembers('{"a":1,"metadata":{},"b":[}', (m) => {
      keys.push(m.key);
      return m.key !== 'metadata';
    });
    assert.equal(followed, true);
    assert.deepEqual(keys, ['a', 'metadata']);
  });

  it('reports member positions', () => {
    const text = '{"a":"x","b":{"c":[1]}}';
    const members: [string, string][] = [];
    assert.equal(
      walkMembers(text, (m) => {
        members.push([m.key, text.slice(m.valueStart, m.valueEnd)]);
        return true;
      }),
      true,
    );
    assert.deepEqual(members, [
      ['a', '"x"'],
      ['b', '{"c":[1]}'],
    ]);
  });
});

describe('EncodedObject.metadata', () => {
  const item = (obj: Record<string, unknown>) => {
    const { text, bytes, typeMeta } = encodeBody(obj);
    return { bytes, typeMeta, revision: 7, text: () => text, copyTo: () => 0 };
  };

  it('gives what object.metadata gives, frozen, without decoding the object', () => {
    const obj = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      data: { '}': '"' },
      metadata: { name: 'a', uid: 'u' },
    };
    const encoded = new EncodedObject(item(obj));
    const meta = encoded.metadata;
    assert.deepEqual(meta, { name: 'a', uid: 'u' });
    assert.ok(Object.isFrozen(meta));
    assert.equal(encoded.metadata, meta);
    assert.deepEqual(encoded.object.metadata, meta);
    // Once decoded, the object's own metadata is the answer.
    assert.equal(encoded.metadata, encoded.object.metadata);
  });

  it('picks fields, before and after decoding, without managedFields', () => {
    const obj = {
      metadata: { name: 'a', managedFields: [{ fieldsV1: { 'f:x': {} } }], finalizers: ['f'] },
      data: { '{': '}' },
    };
    const only = new Set(['name', 'finalizers']);
    const encoded = new EncodedObject(item(obj));
    assert.deepEqual(encoded.metadataFields(only), { name: 'a', finalizers: ['f'] });
    void encoded.object;
    assert.deepEqual(encoded.metadataFields(only), { name: 'a', finalizers: ['f'] });
  });

  it('answers undefined for a body without metadata', () => {
    assert.equal(new EncodedObject(item({ kind: 'X', data: {} })).metadata, undefined);
    assert.equal(metadataOfBody('{}'), undefined);
  });
});
