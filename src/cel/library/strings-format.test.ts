// string.format as kube-apiserver 1.35 has it (strings extension version 2): results recorded from
// cel-go v0.26.0 with golang.org/x/text v0.31.0, the versions kube-apiserver 1.35 links. Version 4
// (the CEL specification's formatting) against the same cel-go with StringsVersion(4).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Duration, UnsignedInt } from '../engine.ts';
import { formatString } from './strings-format.ts';

/** 2.71828, the figure of cel-go's examples (Math.E has more digits). */
const E5 = 271828 / 100000;
const v2 = (f: string, ...args: unknown[]) => formatString(2, f, args);
const v4 = (f: string, ...args: unknown[]) => formatString(4, f, args);
const err = (fn: () => string) => {
  try {
    return `value ${fn()}`;
  } catch (e) {
    return (e as Error).message;
  }
};

describe('string.format, version 2 (kube-apiserver 1.35)', () => {
  it('substitutes and escapes percent signs', () => {
    assert.equal(v2('str is %s and some more', 'filler'), 'str is filler and some more');
    assert.equal(v2('%%%s%%', 'text'), '%text%');
    assert.equal(v2('%d %d %d, %s %s %s', 1n, 2n, 3n, 'A', 'B', 'C'), '1 2 3, A B C');
  });

  it('numbers through x/text’s English printer', () => {
    assert.equal(v2('%e', E5), '2.718280×10⁰⁰');
    assert.equal(v2('%.2e', 1052.032911275), '1.052033×10⁰³');
    assert.equal(v2('%e', -0.000123), '-1.230000×10⁻⁰⁴');
    assert.equal(v2('%e', Number.NaN), '   NaN');
    assert.equal(v2('%e', 'Infinity'), '     ∞');
    assert.equal(v2('%f', 1234567.8), '1,234,567.800000');
    assert.equal(v2('%.0f', 2.5), '2');
    assert.equal(v2('%.0f', 3.5), '4');
    assert.equal(v2('%f', -1e-9), '-0.000000');
    assert.equal(v2('%f', -0), '0.000000');
    assert.equal(v2('%f', '-Infinity'), '-∞');
    assert.equal(v2('%.3f', 1.2345), '1.234');
    assert.equal(v2('%f', Number('123456789012345678901234')), '123,456,789,012,345,685,803,008.000000');
    assert.equal(v2('%e', 5e-324), '4.940656×10⁻³²⁴');
  });

  it('integers in other bases', () => {
    assert.equal(v2('%b', 5n), '101');
    assert.equal(v2('%b', -5n), '-101');
    assert.equal(v2('%b', true), '1');
    assert.equal(v2('%o', new UnsignedInt(65535n)), '177777');
    assert.equal(v2('%x', -30n), '-1e');
    assert.equal(v2('%X', new UnsignedInt(6000n)), '1770');
    assert.equal(v2('%x', 'héllo'), '68c3a96c6c6f');
    assert.equal(v2('%X', new Uint8Array([0xab])), 'AB');
  });

  it('%s writes lists and maps as CEL literals', () => {
    const list = [
      2.71,
      'a\nb',
      new Uint8Array([0x78, 0x79, 0x01]),
      null,
      true,
      new UnsignedInt(1n),
      -3n,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      new Duration(1n, 500_000_000),
      new Date('2023-02-03T23:31:20.123Z'),
    ];
    assert.equal(
      v2('%s', list),
      '[2.710000, "a\\nb", b"xy\\x01", null, true, 1, -3, "NaN", "+Inf", duration("1.5s"), timestamp("2023-02-03T23:31:20.123Z")]',
    );
    const map = new Map<unknown, unknown>([
      ['b', 1n],
      ['a', [1.0]],
      [2n, 'x'],
      [true, new Uint8Array([0x71])],
    ]);
    assert.equal(v2('%s', map), '{"a":[1.000000], "b":1, 2:"x", true:b"q"}');
    assert.equal(v2('%s', [-0, 1e21, 123.456789]), '[-0.000000, 1000000000000000000000.000000, 123.456789]');
    assert.equal(v2('%s', ['é\x07\u00a0\u200b😀\x7f']), '["é\\a\\u00a0\\u200b😀\\x7f"]');
  });

  it('%s of scalars', () => {
    assert.equal(v2('%s', 1234567.0), '1.234567e+06');
    assert.equal(v2('%s', 0.000000002), '2e-09');
    assert.equal(v2('%s', 100000.0), '100000');
    assert.equal(v2('%s', new Duration(-1n, -500_000_000)), '-1.5s');
    assert.equal(v2('%s', new Duration(6347n, 0)), '6347s');
    assert.equal(v2('%s', null), 'null');
    assert.equal(v2('%s', new Date('2023-02-03T23:31:20Z')), '2023-02-03T23:31:20Z');
  });

  it('errors', () => {
    assert.equal(
      err(() => v2('%d', 1.5)),
      'error during formatting: decimal clause can only be used on integers, was given double',
    );
    assert.equal(
      err(() => v2('%d %d', 1n)),
      'index 1 out of range',
    );
    assert.equal(
      err(() => v2('%a', 1n)),
      'could not parse formatting clause: unrecognized formatting clause "a"',
    );
    assert.equal(
      err(() => v2('%', 1.5)),
      'unexpected end of string',
    );
    assert.equal(
      err(() => v2('%.', 1.5)),
      'could not parse formatting clause: error while parsing precision: could not find end of precision specifier',
    );
    assert.equal(
      err(() => v2('%.f', 1.5)),
      'could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax',
    );
    assert.equal(
      err(() => v2('%s', new Map([[1.5, 1n]]))),
      'error during formatting: no formatting function for map key of type double',
    );
    assert.equal(
      err(() => v2('%s', new Uint8Array([0xff]))),
      'error during formatting: could not convert argument "invalid UTF-8 in bytes, cannot convert to string" to string',
    );
    assert.equal(
      err(() => v2('%b', 'abc')),
      'error during formatting: only integers and bools can be formatted as binary, was given string',
    );
  });
});

describe('string.format, version 4 (the CEL specification)', () => {
  it('Go’s fmt for numbers and plain lists', () => {
    assert.equal(v4('%e', E5), '2.718280e+00');
    assert.equal(v4('%.6e', 1052.032911275), '1.052033e+03');
    assert.equal(v4('%e', Number.NaN), 'NaN');
    assert.equal(v4('%f', Number.NEGATIVE_INFINITY), '-Infinity');
    assert.equal(v4('%d', Number.POSITIVE_INFINITY), 'Infinity');
    assert.equal(v4('%.0f', 2.5), '2');
    assert.equal(v4('%.5f', -1.2), '-1.20000');
    assert.equal(v4('%e', 5n), '%!e(int64=000005)');
    assert.equal(
      v4('%s', ['abc', 3.14, null, [9n, 8n], new Date('2023-02-03T23:31:20Z')]),
      '[abc, 3.14, null, [9, 8], 2023-02-03T23:31:20Z]',
    );
    assert.equal(v4('%s', { key1: new Uint8Array([0x78]), key3: E5 }), '{key1: x, key3: 2.71828}');
    assert.equal(
      err(() => v4('%d', null)),
      'error during formatting: decimal clause can only be used on ints, uints, and doubles, was given null_type',
    );
  });
});
