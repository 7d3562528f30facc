// Expected values are upstream's: the examples documented in apimachinery's resource.Quantity and in
// apiserver's CEL quantity library (1.35), and results recorded from k8s.io/apimachinery v0.35.0
// (ParseQuantity, String, AsInt64, AsApproximateFloat64, Add, Sub, Cmp) for the edge cases.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isQuantity,
  parseQuantity,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR,
  Quantity,
  QuantityError,
} from './quantity.ts';

const q = parseQuantity;

describe('quantity parsing and canonical form', () => {
  const cases: [string, string, string][] = [
    // input, String(), format
    ['1.5Gi', '1536Mi', 'BinarySI'],
    ['1536Mi', '1536Mi', 'BinarySI'],
    ['1024Ki', '1Mi', 'BinarySI'],
    ['0.5Gi', '512Mi', 'BinarySI'],
    ['-1.5Gi', '-1536Mi', 'BinarySI'],
    ['1.5', '1500m', 'DecimalSI'],
    ['0.1', '100m', 'DecimalSI'],
    ['100m', '100m', 'DecimalSI'],
    ['1e3', '1e3', 'DecimalExponent'],
    ['1e-12', '1e-9', 'DecimalExponent'], // rounded up to nano
    ['1.5n', '2n', 'DecimalSI'],
    ['0.0000000001', '1n', 'DecimalSI'],
    ['12Mi', '12Mi', 'BinarySI'],
    ['1000m', '1', 'DecimalSI'],
    ['1.0', '1', 'DecimalSI'],
    ['9999999999999999999999999999999999999G', '9999999999999999999999999999999999999G', 'DecimalSI'],
    // Binary values are capped at 2^63-1 and then shown without a suffix.
    ['8Ei', '9223372036854775807', 'BinarySI'],
    // Text that already looks canonical is kept as written, sign and case included.
    ['+1k', '+1k', 'DecimalSI'],
    ['1E3', '1E3', 'DecimalExponent'],
    ['01', '01', 'DecimalSI'],
    // Past the largest suffix upstream prints the mantissa alone.
    ['1000E', '1', 'DecimalSI'],
    // Upstream's scanner reads these as zero.
    ['Mi', '0', 'BinarySI'],
    ['-', '0', 'DecimalSI'],
    ['.', '0', 'DecimalSI'],
    ['0', '0', 'DecimalSI'],
  ];
  for (const [input, str, format] of cases) {
    it(`${input} -> ${str}`, () => {
      const v = q(input);
      assert.equal(v.toString(), str);
      assert.equal(v.format, format);
    });
  }

  it('rejects what upstream rejects, with its messages', () => {
    for (const bad of ['', '10Mo', '1,3G', 'Three', 'aoeu', '1 ', ' 1', '1..5', '1.1.M']) {
      assert.throws(() => q(bad), new QuantityError(QUANTITY_FORMAT_ERROR), bad);
    }
    for (const bad of ['10Mm', '200K', '1e', '1ki', '0.1mi', '1i', '1e99999999999999999999']) {
      assert.throws(() => q(bad), new QuantityError(QUANTITY_SUFFIX_ERROR), bad);
    }
    assert.throws(() => q('.Pi'), /unable to parse numeric part of quantity/);
    assert.equal(
      QUANTITY_FORMAT_ERROR,
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });

  it('isQuantity follows the CEL library examples', () => {
    for (const ok of ['1.3G', '1.3Gi', '10000k', '20', '20M', '20Mi', '1.5G', '200k'])
      assert.ok(isQuantity(ok), ok);
    for (const bad of ['1,3G', '200K', 'Three', '20Mo', '10Mm']) assert.ok(!isQuantity(bad), bad);
  });

  it('answers an error, not a hang, for exponents upstream cannot materialize', () => {
    assert.throws(() => q('1e2147483648'), QuantityError);
  });
});

describe('quantity integers and floats', () => {
  it('isInteger and asInteger', () => {
    assert.equal(q('50000000G').isInteger(), true);
    assert.equal(q('50k').isInteger(), true);
    assert.equal(q('50k').asInteger(), 50000n);
    assert.equal(q('9999999999999999999999999999999999999G').isInteger(), false);
    assert.throws(
      () => q('9999999999999999999999999999999999999G').asInteger(),
      /^QuantityError: cannot convert value to integer$/,
    );
    // Upstream only converts its int64 form at a non-negative scale.
    assert.equal(q('1000m').isInteger(), false);
    assert.equal(q('1.0').isInteger(), false);
    assert.equal(q('1.5Gi').isInteger(), false);
    assert.equal(q('1536Mi').asInteger(), 1610612736n);
    assert.equal(q('1000E').isInteger(), false);
  });

  it('asApproximateFloat', () => {
    assert.equal(q('50.703k').asApproximateFloat(), 50703);
    assert.equal(q('0.1').asApproximateFloat(), 0.1);
    assert.equal(q('1.5n').asApproximateFloat(), 2e-9);
    assert.equal(q('8Ei').asApproximateFloat(), 2 ** 63); // float64 of 2^63-1
    assert.equal(q('9999999999999999999999999999999999999G').asApproximateFloat(), 1.0000000000000001e46);
    assert.equal(q('1e400').asApproximateFloat(), Number.POSITIVE_INFINITY);
    assert.equal(q('50k').sub(Quantity.fromInt(20000)).asApproximateFloat(), 30000);
  });

  it('sign', () => {
    assert.equal(q('-1Ki').sign(), -1);
    assert.equal(q('0').sign(), 0);
    assert.equal(q('1n').sign(), 1);
  });
});

describe('quantity comparison and arithmetic', () => {
  it('compares exactly', () => {
    assert.equal(q('200M').cmp(q('0.2G')), 0);
    assert.equal(q('50M').cmp(q('50Mi')), -1);
    assert.equal(q('50Mi').cmp(q('50M')), 1);
    assert.equal(q('150Mi').cmp(q('100Mi')), 1);
    assert.equal(q('1e100').cmp(q('9223372036854775807')), 1);
    assert.equal(q('-1e100').cmp(q('1n')), -1);
    assert.ok(q('1.5Gi').equals(q('1536Mi')));
    assert.ok(q('2M').equals(q('0.002G')) && q('2000k').equals(q('2M')));
    assert.ok(!q('200M').equals(q('0.3G')));
  });

  it('adds and subtracts like the CEL library examples', () => {
    assert.ok(q('50k').add(q('20k')).equals(q('70k')));
    assert.ok(q('50k').add(Quantity.fromInt(20)).equals(q('50020')));
    assert.ok(q('50k').sub(q('20k')).equals(q('30k')));
    assert.ok(q('50k').sub(Quantity.fromInt(20000)).equals(q('30k')));
    const chain = q('50k').add(Quantity.fromInt(20)).sub(q('100k')).sub(Quantity.fromInt(-50000));
    assert.ok(chain.equals(q('20')));
    assert.equal(chain.asInteger(), 20n);
    assert.ok(q('50k').add(q('20')).equals(q('50.02k')));
    assert.ok(q('50k').sub(q('20')).equals(q('49.98k')));
  });

  it('keeps upstream formats and representations through arithmetic', () => {
    assert.equal(q('1Ki').add(q('1Ki')).toString(), '2Ki');
    assert.equal(q('0').add(q('1Ki')).toString(), '1Ki'); // a zero receiver takes the other format
    assert.equal(q('7Ei').add(q('7Ei')).toString(), '14Ei'); // overflows int64: decimal form
    assert.equal(q('7Ei').add(q('7Ei')).isInteger(), false);
    assert.equal(q('100m').add(q('900m')).toString(), '1');
    assert.equal(q('1.5Gi').sub(q('1.5Gi')).toString(), '0');
    assert.equal(q('9223372036854775807').add(q('1')).toString(), '9223372036854775808');
    assert.equal(q('1e3').add(q('1')).toString(), '1001');
    assert.equal(q('1').neg().toString(), '-1');
  });

  it('answers an error for a shift upstream cannot materialize', () => {
    assert.throws(() => q('1e200000').add(q('1.5')), QuantityError);
  });

  it('fromInt refuses values outside int64', () => {
    assert.throws(() => Quantity.fromInt(1n << 63n), QuantityError);
    assert.equal(Quantity.fromInt(-5).toString(), '-5');
  });
});
