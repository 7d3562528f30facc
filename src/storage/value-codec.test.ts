// A stored value's body made from its text must be exactly what decoding it and encoding the body
// gives (the watch cache serves those bytes), or nothing, leaving the caller to decode.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ApiObject } from '../machinery/object.ts';
import { encodeBody } from './encoded.ts';
import { decodeValue, encodeValue, storedBody } from './value-codec.ts';

const objects: unknown[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'd' }, data: { k: 'v' } },
  // TypeMeta after the body, metadata last, strings full of JSON's punctuation.
  {
    data: { '}': '{', '"': '"}', '\\': '\\"', '"metadata":{': ['}', ']'] },
    kind: 'K',
    spec: [1, -2.5e-7, null, true, { a: {} }],
    apiVersion: 'g/v1',
    metadata: { labels: { a: 'b' }, resourceVersion: '5', uid: 'u', annotations: { x: '\u2028😀' } },
  },
  // Metadata missing, empty, and without kind or apiVersion.
  { kind: 'K', data: {} },
  { metadata: {} },
  {},
  { metadata: { name: 'n', resourceVersion: '' }, apiVersion: 'v1' },
];

/** Values whose shape is not spliced: the answer is undefined, never a wrong body. */
const declined: string[] = [
  '{"kind":1,"metadata":{}}',
  '{"apiVersion":null}',
  '{"metadata":null}',
  '{"metadata":[]}',
  '{"metadata":"x"}',
  '{"metadata":{"resourceVersion":"3"}}',
  '{"a":1,"a":2}',
  '{"b":1,"0":2}',
  '{"__proto__":{}}',
  '[1]',
  '"text"',
];

it('makes from the stored text exactly the body that decoding and encoding give', () => {
  for (const obj of objects) {
    const value = encodeValue('/k', obj as ApiObject);
    const made = storedBody('/k', value, 42);
    assert.ok(made !== undefined, value);
    const decoded = decodeValue('/k', value, 42);
    const expected = encodeBody(decoded);
    assert.equal(made.text, expected.text);
    assert.deepEqual(made.typeMeta, expected.typeMeta);
    assert.deepEqual(Object.keys(made.typeMeta), Object.keys(expected.typeMeta));
    const meta = decoded.metadata ?? {};
    const read = { name: meta.name, namespace: meta.namespace, labels: meta.labels };
    for (const k of ['name', 'namespace', 'labels'] as const) if (read[k] === undefined) delete read[k];
    assert.deepEqual(made.metadata, { ...read, resourceVersion: '42' });
    assert.equal(made.key, '/k');
  }
});

it('declines values it cannot splice exactly', () => {
  for (const value of declined) assert.equal(storedBody('/k', value, 1), undefined, value);
});
