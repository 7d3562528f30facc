import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanDuplicateKeys } from './json-duplicates.ts';

describe('scanDuplicateKeys', () => {
  it('finds nothing in a document without repeats', () => {
    assert.deepEqual(scanDuplicateKeys('{"a":{"b":[1,{"c":2}]},"d":"x"}').duplicates, []);
  });

  it('reports each repeat by path, inside arrays too, in reading order', () => {
    const text = JSON.stringify({ z: 1 }).replace(
      '}',
      ',"z":2,"items":[{"n":1},{"n":1,"n":2}],"m":{"a":"\\"}","a":"y"}}',
    );
    const found = scanDuplicateKeys(text).duplicates.map((d) => d.path);
    assert.deepEqual(found, ['z', 'items[1].n', 'm.a']);
  });

  it('is not fooled by braces, commas and quotes inside strings, or escaped keys', () => {
    const text = '{"s":"{,}[\\"]","k\\u0061":1,"ka":2}';
    assert.deepEqual(
      scanDuplicateKeys(text).duplicates.map((d) => d.path),
      ['ka'],
    );
  });

  it('gives first-occurrence ordinals for the paths asked about', () => {
    const text = '{"metadata":{"name":"a","name":"b","x":1},"spec":{"y":2}}';
    const scan = scanDuplicateKeys(text, new Set(['metadata.x', 'spec.y']));
    assert.deepEqual(scan.duplicates, [{ path: 'metadata.name', ordinal: 2 }]);
    assert.deepEqual(
      [...scan.ordinals],
      [
        ['metadata.x', 3],
        ['spec.y', 5],
      ],
    );
  });
});
