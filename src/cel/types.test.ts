import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from './compile.ts';
import { createEnvironment } from './environment.ts';
import { T, typeFromSchema, typeName } from './types.ts';

describe('types', () => {
  it('spells types as cel-go does', () => {
    assert.equal(typeName(T.map(T.string, T.list(T.int))), 'map(string, list(int))');
    assert.equal(typeName(T.optional(T.timestamp)), 'optional_type(google.protobuf.Timestamp)');
  });

  it('declares a type from a structural schema', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer' },
            ratio: { type: 'number' },
            when: { type: 'string', format: 'date-time' },
            port: { 'x-kubernetes-int-or-string': true },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
            free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          },
        },
      },
    };
    const t = typeFromSchema(schema, 'object');
    assert.equal(t.kind, 'object');
    const spec = t.kind === 'object' ? t.fields.spec : T.dyn;
    assert.equal(spec.kind === 'object' && typeName(spec.fields.labels), 'map(string, string)');
    assert.equal(spec.kind === 'object' && typeName(spec.fields.items), 'list(object.spec.items.@items)');
    assert.equal(spec.kind === 'object' && spec.fields.port.kind, 'dyn');
    assert.equal(spec.kind === 'object' && spec.fields.free.kind, 'dyn');
    assert.equal(spec.kind === 'object' && spec.fields.when.kind, 'timestamp');

    const env = createEnvironment({ variables: { object: t } });
    for (const ok of [
      'object.spec.replicas > 1',
      "object.spec.labels['a'] == 'b'",
      'object.spec.items.all(i, i.name != "")',
      'object.spec.free.anything',
    ]) {
      assert.equal(compile(env, ok).ok, true, ok);
    }
    const bad = compile(env, 'object.spec.replicaz');
    assert.equal(!bad.ok && bad.error.reason, "undefined field 'replicaz'");
  });
});
