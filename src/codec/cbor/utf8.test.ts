import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exactHalf, halfToNumber } from './float16.ts';
import { decodeLenientUtf8, goQuote } from './utf8.ts';

describe('utf8 and float16 helpers', () => {
  it('replaces each invalid byte with one U+FFFD, as Go does', () => {
    assert.equal(decodeLenientUtf8(Buffer.from('e28241', 'hex')), '\ufffd\ufffdA');
    assert.equal(decodeLenientUtf8(Buffer.from('eda080', 'hex')), '\ufffd\ufffd\ufffd');
    assert.equal(decodeLenientUtf8(Buffer.from('f09f9880', 'hex')), '😀');
    assert.equal(decodeLenientUtf8(Buffer.from('f09f98', 'hex')), '\ufffd\ufffd\ufffd');
  });

  it('quotes like Go strconv.Quote', () => {
    assert.equal(goQuote('name'), '"name"');
    assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(goQuote('\u0000\u007f\t'), '"\\x00\\x7f\\t"');
    assert.equal(goQuote('ü水😀'), '"ü水😀"');
    assert.equal(goQuote('\u200b'), '"\\u200b"');
  });

  it('finds exact halves and only those', () => {
    for (let bits = 0; bits < 0x7c00; bits++) {
      const x = halfToNumber(bits);
      assert.equal(exactHalf(x), bits, `bits ${bits.toString(16)}`);
      assert.equal(exactHalf(-x), bits === 0 ? 0x8000 : bits | 0x8000);
    }
    assert.equal(exactHalf(65505), undefined);
    assert.equal(exactHalf(1 + 2 ** -11), undefined);
    assert.equal(exactHalf(2 ** -25), undefined);
  });
});
