import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64Error, goBase64ErrorOffset } from './go-base64.ts';

// Expected offsets were taken from Go's base64.StdEncoding.Decode on the same inputs.
describe('goBase64ErrorOffset', () => {
  it('accepts padded standard base64, with CR and LF anywhere', () => {
    for (const ok of ['', 'YQ==', 'YWI=', 'YWJj', 'YW\nJj', 'YWJj\r\n', 'YQ==\n', 'YQ=\n=', 'YWJjZGVmZ2hp']) {
      assert.equal(goBase64ErrorOffset(ok), -1, JSON.stringify(ok));
    }
  });

  it('reports the byte offset Go reports', () => {
    const cases: [string, number][] = [
      ['YQ=', 3],
      ['YQ', 0],
      ['Y', 0],
      ['abcde', 4],
      ['not base64!!', 3],
      ['YQ==YQ==', 4],
      ['=', 0],
      ['Y===', 1],
      ['YW=j', 2],
      ['éé', 0],
      ['YWJjZGVmZ2g', 8],
      ['YWJjZGVmZ2hpamts!', 16],
    ];
    for (const [input, offset] of cases)
      assert.equal(goBase64ErrorOffset(input), offset, JSON.stringify(input));
  });

  it('words the error as Go does', () => {
    assert.equal(base64Error(3), 'illegal base64 data at input byte 3');
  });
});
