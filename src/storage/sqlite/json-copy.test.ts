// copyStored must give exactly what parsing the stored JSON gives, or give up.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../machinery/object.ts';
import { encodeValue } from '../value-codec.ts';
import { copyStored } from './json-copy.ts';

const viaJson = (obj: object) => JSON.parse(encodeValue('/k', obj as ApiObject));

describe('copyStored', () => {
  it('equals the JSON round trip for plain data, key order included, and shares no object', () => {
    const obj = {
      kind: 'ConfigMap',
      metadata: { name: 'a', resourceVersion: '12', labels: { x: 'y' }, '10': 'numeric key' },
      data: { s: 'é\ud800 "quoted"\n', n: 1e21, f: 0.1, t: true, z: null },
      list: [1, 'two', [3], { four: 4 }, null],
      empty: {},
    };
    const copy = copyStored(obj);
    assert.ok(copy !== undefined);
    assert.deepStrictEqual(copy, viaJson(obj));
    assert.equal(JSON.stringify(copy), JSON.stringify(viaJson(obj)));
    assert.notEqual(copy.data, obj.data);
    assert.notEqual((copy.list as unknown[])[2], obj.list[2]);
    assert.equal((copy.metadata as Record<string, unknown>).resourceVersion, undefined);
  });

  it('gives up on anything JSON would change or drop', () => {
    class Thing {
      a = 1;
    }
    const sparse = new Array<number>(3);
    sparse[0] = 1;
    sparse[2] = 3;
    const cases: object[] = [
      { a: undefined },
      { a: () => 1 },
      { a: new Date(0) },
      { a: new Thing() },
      { a: Number.NaN },
      { a: Number.POSITIVE_INFINITY },
      { a: -0 },
      { a: sparse },
      { a: [undefined] },
      { a: { toJSON: () => 'x' } },
      { a: Object.create(null) },
      JSON.parse('{"a": {"__proto__": {"b": 1}}}'),
      JSON.parse('{"__proto__": {"b": 1}}'),
      new Thing(),
    ];
    for (const c of cases) assert.equal(copyStored(c), undefined, JSON.stringify(c));
  });
});
