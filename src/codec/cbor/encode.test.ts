import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeCbor, encodeCborItem } from './encode.ts';
import { CborEncodeError } from './errors.ts';

const hex = (v: unknown) => encodeCborItem(v).toString('hex');

describe('encodeCbor', () => {
  it('prefixes bodies with the self-described tag 55799', () => {
    assert.equal(encodeCbor(null).toString('hex'), 'd9d9f7f6');
    assert.equal(encodeCbor({}).toString('hex'), 'd9d9f7a0');
  });

  it('writes null, booleans, empty containers', () => {
    assert.equal(hex(null), 'f6');
    assert.equal(hex(false), 'f4');
    assert.equal(hex(true), 'f5');
    assert.equal(hex([]), '80');
    assert.equal(hex({}), 'a0');
  });

  it('writes integers in the shortest head (RFC 8949 appendix A)', () => {
    const cases: [number, string][] = [
      [0, '00'],
      [1, '01'],
      [10, '0a'],
      [23, '17'],
      [24, '1818'],
      [25, '1819'],
      [100, '1864'],
      [255, '18ff'],
      [256, '190100'],
      [1000, '1903e8'],
      [65535, '19ffff'],
      [65536, '1a00010000'],
      [1000000, '1a000f4240'],
      [4294967295, '1affffffff'],
      [4294967296, '1b0000000100000000'],
      [1000000000000, '1b000000e8d4a51000'],
      [Number.MAX_SAFE_INTEGER, '1b001fffffffffffff'],
      [-1, '20'],
      [-10, '29'],
      [-24, '37'],
      [-25, '3818'],
      [-100, '3863'],
      [-256, '38ff'],
      [-257, '390100'],
      [-1000, '3903e7'],
      [-4294967296, '3affffffff'],
      [-4294967297, '3b0000000100000000'],
    ];
    for (const [n, want] of cases) assert.equal(hex(n), want, String(n));
  });

  it('writes -0 as the integer 0, as upstream reads "-0" from JSON into an int64', () => {
    assert.equal(hex(-0), '00');
  });

  it('writes integral numbers up to 2^63 as integers, beyond as floats', () => {
    assert.equal(hex(2 ** 60), '1b1000000000000000');
    assert.equal(hex(-(2 ** 63)), '3b7fffffffffffffff');
    // 2^63 does not fit int64: upstream's JSON reader makes it a float64.
    assert.equal(hex(2 ** 63), 'fa5f000000');
    assert.equal(hex(1e20), 'fb4415af1d78b58c40');
  });

  it('writes bigints in int64/uint64 range and refuses wider ones like big.Int', () => {
    assert.equal(hex(18446744073709551615n), '1bffffffffffffffff');
    assert.equal(hex(-18446744073709551616n + 9223372036854775808n), '3b7fffffffffffffff');
    assert.throws(() => hex(18446744073709551616n), { message: 'cbor: unsupported type: big.Int' });
  });

  it('writes floats in the narrowest width that keeps the value', () => {
    const cases: [number, string][] = [
      [0.5, 'f93800'],
      [1.5, 'f93e00'],
      [-4.1, 'fbc010666666666666'],
      [3.25, 'f94280'],
      [2 ** -24, 'f90001'], // smallest half subnormal
      [0.00006103515625, 'f90400'], // smallest half normal
      [65504.5, 'fa477fe080'], // beyond half range: single
      [100000.5, 'fa47c35040'],
      [1.1, 'fb3ff199999999999a'],
      [0.1, 'fb3fb999999999999a'],
      [1.0e300, 'fb7e37e43c8800759c'],
      [2 ** -30, 'fa30800000'], // below half's subnormals: single
    ];
    for (const [n, want] of cases) assert.equal(hex(n), want, String(n));
  });

  it('refuses NaN and infinities with upstream messages', () => {
    assert.throws(() => hex(Number.NaN), {
      name: 'CborEncodeError',
      message: 'cbor: unsupported value: floating-point NaN',
    });
    assert.throws(() => hex(Number.POSITIVE_INFINITY), {
      message: 'cbor: unsupported value: floating-point infinity',
    });
    assert.throws(() => hex({ a: [Number.NEGATIVE_INFINITY] }), CborEncodeError);
  });

  it('writes strings as byte strings, UTF-8 encoded, lengths in the shortest head', () => {
    assert.equal(hex(''), '40');
    assert.equal(hex('a'), '4161');
    assert.equal(hex('IETF'), '4449455446');
    assert.equal(hex('ü'), '42c3bc');
    assert.equal(hex('水'), '43e6b0b4');
    assert.equal(hex('\u{10151}'), '44f0908591');
    assert.equal(hex('x'.repeat(24)).slice(0, 6), '581878');
    assert.equal(hex('x'.repeat(256)).slice(0, 8), '59010078');
    // A lone surrogate becomes U+FFFD, as Go's JSON reader makes it.
    assert.equal(hex('\ud800'), '43efbfbd');
  });

  it('sorts map keys bytewise by their encoding: shorter first, then byte order', () => {
    const value = { apiVersion: 1, kind: 2, metadata: 3, data: 4, b: 5, aa: 6, Z: 7, é: 8 };
    const order = (b: Buffer) => {
      const out: string[] = [];
      let i = 1;
      while (i < b.length) {
        const len = b[i] & 0x1f;
        out.push(b.subarray(i + 1, i + 1 + len).toString('utf8'));
        i += 1 + len + 1;
      }
      return out;
    };
    assert.deepEqual(order(encodeCborItem(value)), [
      'Z',
      'b',
      'aa',
      'é',
      'data',
      'kind',
      'metadata',
      'apiVersion',
    ]);
  });

  it('writes arrays in order and nests', () => {
    assert.equal(hex([1, [2, 3], [4, 5]]), '8301820203820405');
    assert.equal(hex({ a: 1, b: [2, 3] }), 'a24161014162820203');
  });

  it('follows JSON.stringify on what is written: undefined members dropped, toJSON applied', () => {
    assert.equal(hex({ a: undefined, b: 1, f: () => 1 }), 'a1416201');
    assert.equal(hex([undefined, () => 1]), '82f6f6');
    assert.equal(hex({ t: new Date(0) }), hex({ t: '1970-01-01T00:00:00.000Z' }));
  });

  it('encodes deep nesting without recursion and refuses cycles', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 20000; i++) deep = [deep];
    assert.equal(encodeCborItem(deep).length, 20001);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => encodeCbor(cyclic), CborEncodeError);
  });

  it('matches hand-computed golden bytes for a small ConfigMap (RFC 8949 by hand)', () => {
    const configMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'demo', namespace: 'default' },
      data: { a: '1' },
    };
    const golden = [
      'd9d9f7', // tag 55799, self-described CBOR
      'a4', // map, 4 pairs; keys by encoded bytes: data, kind (both 0x44), metadata (0x48), apiVersion (0x4a)
      '4464617461', // h'data'
      'a1', // map, 1 pair
      '4161', // h'a'
      '4131', // h'1'
      '446b696e64', // h'kind'
      '49436f6e6669674d6170', // h'ConfigMap'
      '486d65746164617461', // h'metadata'
      'a2', // map, 2 pairs: name (4 bytes) before namespace (9 bytes)
      '446e616d65', // h'name'
      '4464656d6f', // h'demo'
      '496e616d657370616365', // h'namespace'
      '4764656661756c74', // h'default'
      '4a61706956657273696f6e', // h'apiVersion'
      '427631', // h'v1'
    ].join('');
    assert.equal(encodeCbor(configMap).toString('hex'), golden);
  });
});
