import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorString } from '../machinery/field-errors.ts';
import type { ApiObject } from '../machinery/object.ts';
import { compileKindSchema } from './compile.ts';

const schema = compileKindSchema({
  group: 'example.svc.io',
  version: 'v1',
  kind: 'Widget',
  description: 'A test kind.',
  properties: {
    spec: {
      type: 'object',
      description: 'spec',
      properties: {
        size: { type: 'integer', format: 'int32', description: 'size' },
        mode: { type: 'string', enum: ['Fast', 'Slow'], default: 'Fast', description: 'mode' },
        kind: { type: 'string', goType: 'v1.WidgetKind', description: 'a named string type' },
        parts: {
          type: 'array',
          items: { ref: 'Part' },
          description: 'parts',
        },
        tags: { type: 'object', additionalProperties: { type: 'string' }, description: 'tags' },
        blob: { type: 'string', format: 'byte', description: 'blob' },
        renewTime: { ref: 'MicroTime', description: 'micro' },
        free: { type: 'object', preserveUnknownFields: true, description: 'anything' },
      },
    },
    data: { type: 'object', additionalProperties: { type: 'string' }, description: 'data' },
  },
  definitions: {
    Part: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, weight: { type: 'number' } },
    },
  },
});

function normalize(body: unknown) {
  const obj = structuredClone(body) as ApiObject;
  return { result: schema.normalize(obj), obj };
}

describe('compileKindSchema: pruning', () => {
  it('drops unknown fields in place and reports them as upstream words their paths', () => {
    const { result, obj } = normalize({
      apiVersion: 'example.svc.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', surprise: 1 },
      top: true,
      spec: { size: 1, extra: 'x', parts: [{ name: 'a', colour: 'red' }, { name: 'b' }] },
    });
    assert.deepEqual(result.unknownFields, [
      'metadata.surprise',
      'top',
      'spec.extra',
      'spec.parts[0].colour',
    ]);
    assert.deepEqual(result.typeErrors, []);
    assert.deepEqual(obj, {
      apiVersion: 'example.svc.io/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { size: 1, mode: 'Fast', parts: [{ name: 'a' }, { name: 'b' }] },
    });
  });

  it('keeps whatever sits under a preserve-unknown-fields node', () => {
    const { result, obj } = normalize({
      spec: { free: { a: { b: [1, 2] } } },
      metadata: { managedFields: [{ fieldsV1: { 'f:data': {} } }] },
    });
    assert.deepEqual(result.unknownFields, []);
    assert.deepEqual((obj.spec as Record<string, unknown>).free, { a: { b: [1, 2] } });
    assert.deepEqual(obj.metadata?.managedFields, [{ fieldsV1: { 'f:data': {} } }]);
  });
});

describe('compileKindSchema: defaults and nulls', () => {
  it('fills defaults of absent fields only', () => {
    assert.equal((normalize({ spec: {} }).obj.spec as Record<string, unknown>).mode, 'Fast');
    assert.equal((normalize({ spec: { mode: 'Slow' } }).obj.spec as Record<string, unknown>).mode, 'Slow');
    assert.equal(normalize({}).obj.spec, undefined);
  });

  it('treats null as absent, and as the zero value inside maps and lists', () => {
    const { result, obj } = normalize({ spec: { size: null, parts: [null] }, data: { a: null } });
    assert.deepEqual(result, { unknownFields: [], typeErrors: [] });
    assert.deepEqual(obj.spec, { mode: 'Fast', parts: [{}] });
    assert.deepEqual(obj.data, { a: '' });
  });
});

describe('compileKindSchema: type errors', () => {
  const first = (body: unknown) => normalize(body).result.typeErrors[0];

  it('names the innermost struct, the JSON path without keys or indices, and the Go type', () => {
    assert.equal(
      first({ data: { k: 5 } }),
      'json: cannot unmarshal number into Go struct field Widget.data of type string',
    );
    assert.equal(
      first({ metadata: { labels: { a: true } } }),
      'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string',
    );
    assert.equal(
      first({ metadata: [] }),
      'json: cannot unmarshal array into Go struct field Widget.metadata of type v1.ObjectMeta',
    );
    assert.equal(
      first({ spec: { size: 'big' } }),
      'json: cannot unmarshal string into Go struct field WidgetSpec.spec.size of type int32',
    );
    assert.equal(
      first({ spec: { parts: [{ name: 'a' }, 7] } }),
      'json: cannot unmarshal number into Go struct field WidgetSpec.spec.parts of type v1.Part',
    );
    assert.equal(
      first({ spec: { parts: [{ name: 1 }] } }),
      'json: cannot unmarshal number into Go struct field Part.spec.parts.name of type string',
    );
    assert.equal(
      first({ spec: { kind: 3 } }),
      'json: cannot unmarshal number into Go struct field WidgetSpec.spec.kind of type v1.WidgetKind',
    );
    assert.equal(
      first({ spec: { tags: 'x' } }),
      'json: cannot unmarshal string into Go struct field WidgetSpec.spec.tags of type map[string]string',
    );
  });

  it('puts the literal of a number that does not fit an integer field', () => {
    assert.equal(
      first({ spec: { size: 1.5 } }),
      'json: cannot unmarshal number 1.5 into Go struct field WidgetSpec.spec.size of type int32',
    );
    assert.equal(
      first({ spec: { size: 2147483648 } }),
      'json: cannot unmarshal number 2147483648 into Go struct field WidgetSpec.spec.size of type int32',
    );
    assert.match(
      first({ metadata: { generation: 1e30 } }),
      /^json: cannot unmarshal number 1e\+30 into .* of type int64$/,
    );
    assert.equal(first({ metadata: { generation: 2 ** 53 } }), undefined);
  });

  it('checks base64 bytes and timestamps as the decoder does, and canonicalizes timestamps', () => {
    assert.equal(first({ spec: { blob: 'not base64!!' } }), 'illegal base64 data at input byte 3');
    assert.equal(first({ spec: { blob: 'YWJj\nZGVm' } }), undefined);
    assert.equal(
      (normalize({ spec: { blob: 'YWJj\r\nZGVm' } }).obj.spec as Record<string, unknown>).blob,
      'YWJjZGVm',
    );
    assert.equal(
      first({ spec: { renewTime: '2024-01-01T00:00:00Z' } }),
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
    assert.equal(
      first({ metadata: { creationTimestamp: 5 } }),
      'json: cannot unmarshal number into Go value of type string',
    );
    const { obj } = normalize({
      metadata: { creationTimestamp: '2024-01-01T02:00:00.5+02:00' },
      spec: { renewTime: '2024-01-01T02:00:00.000001+02:00' },
    });
    assert.equal(obj.metadata?.creationTimestamp, '2024-01-01T00:00:00Z');
    assert.equal((obj.spec as Record<string, unknown>).renewTime, '2024-01-01T00:00:00.000001Z');
  });

  it('refuses a body that is not an object', () => {
    for (const [body, word] of [
      [null, 'null'],
      [[], 'array'],
      ['x', 'string'],
      [5, 'number'],
    ] as const) {
      assert.deepEqual(schema.normalize(body as unknown as ApiObject).typeErrors, [
        `json: cannot unmarshal ${word} into Go value of type v1.Widget`,
      ]);
    }
  });
});

describe('compileKindSchema: never throws', () => {
  it('survives garbage anywhere', () => {
    let deep: unknown = {};
    for (let i = 0; i < 20000; i++) deep = { spec: deep };
    const garbage: unknown[] = [
      undefined,
      null,
      0,
      Number.NaN,
      '',
      [],
      [[[]]],
      { metadata: 'x', spec: [], data: 5 },
      {
        metadata: {
          labels: [1],
          annotations: null,
          ownerReferences: {},
          finalizers: 'f',
          managedFields: [1, null, 'x'],
        },
      },
      { spec: { parts: { 0: 'x' }, tags: [null], size: Number.POSITIVE_INFINITY, renewTime: {} } },
      { __proto__: { polluted: true }, constructor: 1, toString: 'x' },
      JSON.parse('{"__proto__": {"x": 1}, "spec": {"__proto__": 5}}'),
      deep,
    ];
    for (const g of garbage) {
      const obj = (g === deep ? g : structuredClone(g)) as ApiObject;
      assert.doesNotThrow(() => schema.normalize(obj));
      assert.doesNotThrow(() => schema.validate(obj));
    }
  });
});

describe('compileKindSchema: validate', () => {
  it('reports enums as unsupported values and required fields, with field paths', () => {
    const obj = { spec: { mode: 'Medium', parts: [{ weight: 1 }] } } as unknown as ApiObject;
    assert.deepEqual(schema.validate(obj).map(errorString), [
      'spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"',
      'spec.parts[0].name: Required value',
    ]);
  });
});
