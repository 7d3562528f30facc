import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileKindSchema } from '../schema/compile.ts';
import { PatchError } from './errors.ts';
import { applyJsonPatch, decodeJsonPatch, jsonPatchFieldProblems } from './json-patch.ts';
import { mergePatch } from './merge-patch.ts';
import { strategicMergePatch } from './strategic-merge.ts';

const fails = (f: () => unknown, message: string, kind: 'malformed' | 'conflict') =>
  assert.throws(
    f,
    (err: unknown) => err instanceof PatchError && err.message === message && err.kind === kind,
  );

describe('JSON Patch', () => {
  const doc = { a: { b: 1, list: ['x', 'y'] } };
  it('applies add, remove, replace, move, copy and test in order, leaving the input alone', () => {
    const ops = decodeJsonPatch([
      { op: 'add', path: '/a/c', value: 2 },
      { op: 'add', path: '/a/list/-', value: 'z' },
      { op: 'add', path: '/a/list/0', value: 'w' },
      { op: 'remove', path: '/a/list/1' },
      { op: 'replace', path: '/a/b', value: 10 },
      { op: 'copy', from: '/a/b', path: '/copied' },
      { op: 'move', from: '/a/c', path: '/moved' },
      { op: 'test', path: '/a/b', value: 10 },
      { op: 'add', path: '/k~1e~0y', value: true },
    ]);
    assert.deepEqual(applyJsonPatch(doc, ops), {
      a: { b: 10, list: ['w', 'y', 'z'] },
      copied: 10,
      moved: 2,
      'k/e~y': true,
    });
    assert.deepEqual(doc, { a: { b: 1, list: ['x', 'y'] } });
  });

  it('words its failures as upstream does', () => {
    fails(
      () => decodeJsonPatch({ op: 'add' }),
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
      'malformed',
    );
    const apply = (op: Record<string, unknown>) => () => applyJsonPatch(doc, decodeJsonPatch([op]));
    fails(
      apply({ op: 'remove', path: '/a/nope' }),
      'Unable to remove nonexistent key: nope: missing value',
      'conflict',
    );
    fails(
      apply({ op: 'replace', path: '/a/nope', value: 1 }),
      'replace operation does not apply: doc is missing key: /a/nope: missing value',
      'conflict',
    );
    fails(
      apply({ op: 'add', path: '/x/y', value: 1 }),
      'add operation does not apply: doc is missing path: "/x/y": missing value',
      'conflict',
    );
    fails(
      apply({ op: 'test', path: '/a/b', value: 2 }),
      'testing value /a/b failed: test failed',
      'conflict',
    );
    fails(
      apply({ op: 'add', path: '/a/list/9', value: 1 }),
      'Unable to access invalid index: 9: invalid index referenced',
      'conflict',
    );
    fails(apply({ op: 'frobnicate', path: '/a' }), 'Unexpected kind: frobnicate', 'conflict');
  });

  it('reports unknown and repeated fields of the operations', () => {
    assert.deepEqual(
      jsonPatchFieldProblems([{ op: 'add', path: '/a', value: 1, foo: 'bar' }], ['[1].path']),
      ['json patch unknown field "[0].foo"', 'json patch duplicate field "[1].path"'],
    );
  });
});

describe('JSON Merge Patch', () => {
  it('merges objects, deletes with null, replaces everything else', () => {
    assert.deepEqual(
      mergePatch({ a: { b: 1, c: 2 }, l: [1, 2], s: 'x' }, { a: { b: null, d: 3 }, l: [3], s: null }),
      {
        a: { c: 2, d: 3 },
        l: [3],
      },
    );
    assert.deepEqual(mergePatch({ a: 1 }, 'text'), 'text');
  });
});

describe('strategic merge patch', () => {
  const schema = compileKindSchema({
    group: 'example',
    version: 'v1',
    kind: 'Thing',
    description: 'test kind',
    properties: {
      spec: { ref: 'Spec' },
    },
    definitions: {
      Spec: {
        type: 'object',
        properties: {
          containers: {
            type: 'array',
            items: { ref: 'Container' },
            patchMergeKey: 'name',
            patchStrategy: 'merge',
          },
          tags: { type: 'array', items: { type: 'string' }, patchStrategy: 'merge' },
          args: { type: 'array', items: { type: 'string' } },
          strategy: {
            type: 'object',
            patchStrategy: 'retainKeys',
            properties: {
              type: { type: 'string' },
              rollingUpdate: { type: 'object', properties: { maxSurge: { type: 'integer' } } },
            },
          },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      Container: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          image: { type: 'string' },
          ports: {
            type: 'array',
            items: { ref: 'Port' },
            patchMergeKey: 'containerPort',
            patchStrategy: 'merge',
          },
        },
      },
      Port: {
        type: 'object',
        properties: { containerPort: { type: 'integer' }, protocol: { type: 'string' } },
      },
    },
  });
  const original = {
    metadata: { name: 'x', finalizers: ['a', 'b'] },
    spec: {
      containers: [
        { name: 'web', image: 'nginx:1', ports: [{ containerPort: 80 }, { containerPort: 443 }] },
        { name: 'side', image: 'busybox' },
      ],
      tags: ['one', 'two'],
      args: ['--a'],
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
      labels: { a: '1', b: '2' },
    },
  };
  const smp = (patch: unknown) => strategicMergePatch(original, patch, schema) as typeof original;

  it('merges containers by name and ports by containerPort; other lists replace', () => {
    const out = smp({
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx:2',
            ports: [{ containerPort: 8080 }, { containerPort: 80, protocol: 'TCP' }],
          },
        ],
        args: ['--b'],
      },
    });
    assert.deepEqual(out.spec.containers, [
      {
        name: 'web',
        image: 'nginx:2',
        ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443 }, { containerPort: 8080 }],
      },
      { name: 'side', image: 'busybox' },
    ]);
    assert.deepEqual(out.spec.args, ['--b']);
    assert.deepEqual(original.spec.containers[0].image, 'nginx:1', 'the original is left alone');
  });

  it('$patch: delete removes an element, $patch: replace replaces a list or a map', () => {
    assert.deepEqual(
      smp({ spec: { containers: [{ name: 'side', $patch: 'delete' }] } }).spec.containers.map((c) => c.name),
      ['web'],
    );
    assert.deepEqual(
      smp({ spec: { containers: [{ name: 'only', image: 'i' }, { $patch: 'replace' }] } }).spec.containers,
      [{ name: 'only', image: 'i' }],
    );
    assert.deepEqual(smp({ spec: { labels: { c: '3', $patch: 'replace' } } }).spec.labels, { c: '3' });
    assert.equal(smp({ spec: { labels: { $patch: 'delete' } } }).spec.labels, undefined);
  });

  it('primitive merge lists take a union; $deleteFromPrimitiveList removes values', () => {
    assert.deepEqual(smp({ spec: { tags: ['two', 'three'] } }).spec.tags, ['one', 'two', 'three']);
    assert.deepEqual(smp({ spec: { '$deleteFromPrimitiveList/tags': ['one'] } }).spec.tags, ['two']);
    assert.deepEqual(smp({ metadata: { finalizers: ['c'] } }).metadata.finalizers, ['a', 'b', 'c']);
  });

  it('$setElementOrder orders the merged list; $retainKeys drops what it does not name', () => {
    const out = smp({
      spec: {
        '$setElementOrder/containers': [{ name: 'side' }, { name: 'web' }],
        containers: [{ name: 'web', image: 'n' }],
      },
    });
    assert.deepEqual(
      out.spec.containers.map((c) => c.name),
      ['side', 'web'],
    );
    const retained = smp({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    assert.deepEqual(retained.spec.strategy, { type: 'Recreate' });
  });

  it('null deletes a field; directives never end up in the object', () => {
    const out = smp({
      spec: {
        args: null,
        containers: [{ name: 'new', image: 'x', ports: [{ containerPort: 1, $patch: 'merge' }] }],
      },
    });
    assert.equal(out.spec.args, undefined);
    assert.deepEqual(out.spec.containers[2], { name: 'new', image: 'x', ports: [{ containerPort: 1 }] });
  });

  it('matches each element with the first of its key, also after deletes and in long lists', () => {
    const twice = {
      ...original,
      spec: {
        ...original.spec,
        containers: [
          { name: 'a', image: '1' },
          { name: 'b', image: '2' },
          { name: 'a', image: '3' },
        ],
      },
    };
    const out = strategicMergePatch(
      twice,
      {
        spec: {
          containers: [
            { name: 'a', $patch: 'delete' },
            { name: 'a', image: 'second' },
            { name: 'c', image: 'new' },
            { name: 'c', image: 'newer' },
          ],
        },
      },
      schema,
    ) as typeof original;
    assert.deepEqual(out.spec.containers, [
      { name: 'b', image: '2' },
      { name: 'a', image: 'second' },
      { name: 'c', image: 'newer' },
    ]);
    const many = Array.from({ length: 100_000 }, (_, i) => ({ name: `c${i}` }));
    const merged = smp({ spec: { containers: many, tags: many.map((c) => c.name) } });
    assert.equal(merged.spec.containers.length, 100_002);
    assert.equal(merged.spec.tags.length, 100_002);
  });

  it('refuses an element without its merge key, and unknown directives', () => {
    fails(
      () => smp({ spec: { containers: [{ image: 'x' }] } }),
      'map: map[image:x] does not contain declared merge key: name',
      'conflict',
    );
    fails(
      () => smp({ spec: { labels: { $patch: 'explode' } } }),
      'unknown patch type: explode in map: map[$patch:explode]',
      'malformed',
    );
  });
});
