import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DecodeError } from '../serializers.ts';
import { decodeCbor } from './decode.ts';
import { encodeCbor } from './encode.ts';
import { CborDecodeError, type CborErrorKind } from './errors.ts';

const h = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const value = (s: string) => decodeCbor(h(s)).value;

function rejects(s: string | Buffer, message: string, kind?: CborErrorKind) {
  const bytes = typeof s === 'string' ? h(s) : s;
  assert.throws(
    () => decodeCbor(bytes),
    (err: unknown) => {
      assert.ok(err instanceof CborDecodeError, `not a CborDecodeError: ${String(err)}`);
      assert.ok(err instanceof DecodeError);
      assert.equal(err.message, message);
      if (kind !== undefined) assert.equal(err.kind, kind);
      return true;
    },
  );
}

describe('decodeCbor: values', () => {
  it('reads integers of every width, negative too', () => {
    assert.equal(value('00'), 0);
    assert.equal(value('17'), 23);
    assert.equal(value('1818'), 24);
    assert.equal(value('190100'), 256);
    assert.equal(value('1a000f4240'), 1000000);
    assert.equal(value('1b000000e8d4a51000'), 1000000000000);
    assert.equal(value('20'), -1);
    assert.equal(value('3903e7'), -1000);
    // Non-shortest heads are well-formed and accepted.
    assert.equal(value('1b0000000000000001'), 1);
  });

  it('reads int64 values beyond 2^53 as the nearest number (as JSON.parse reads their text)', () => {
    assert.equal(value('1b7fffffffffffffff'), JSON.parse('9223372036854775807'));
    assert.equal(value('3b7fffffffffffffff'), -(2 ** 63));
    assert.equal(value('1b0020000000000001'), 2 ** 53); // 2^53 + 1 rounds
  });

  it('refuses integers outside int64 like upstream', () => {
    rejects(
      '1bffffffffffffffff',
      "cbor: cannot unmarshal positive integer into Go value of type int64 (18446744073709551615 overflows Go's int64)",
      'overflow',
    );
    rejects(
      '1b8000000000000000',
      "cbor: cannot unmarshal positive integer into Go value of type int64 (9223372036854775808 overflows Go's int64)",
    );
    rejects(
      '3b8000000000000000',
      "cbor: cannot unmarshal negative integer into Go value of type int64 (-9223372036854775809 overflows Go's int64)",
    );
  });

  it('reads floats of all three widths', () => {
    assert.equal(value('f93800'), 0.5);
    assert.equal(value('f90001'), 2 ** -24);
    assert.equal(value('f97bff'), 65504);
    assert.equal(value('fa47c35000'), 100000);
    assert.equal(value('fb3ff199999999999a'), 1.1);
    assert.equal(value('f98000'), -0);
  });

  it('refuses NaN and infinities in any width', () => {
    for (const s of [
      'f97e00',
      'f97c00',
      'f9fc00',
      'fa7fc00000',
      'fa7f800000',
      'fb7ff8000000000000',
      'fbfff0000000000000',
    ]) {
      const nan = s === 'f97e00' || s === 'fa7fc00000' || s === 'fb7ff8000000000000';
      rejects(
        s,
        `cbor: data item of cbor type primitives is not accepted by protocol: floating-point ${nan ? 'NaN' : 'infinity'}`,
        'unacceptable',
      );
    }
  });

  it('reads false, true, null and refuses other simple values', () => {
    assert.equal(value('f4'), false);
    assert.equal(value('f5'), true);
    assert.equal(value('f6'), null);
    rejects(
      'f7',
      'cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized',
    );
    rejects(
      'e0',
      'cbor: data item of cbor type primitives is not accepted by protocol: simple value 0 is not recognized',
    );
    rejects(
      'f820',
      'cbor: data item of cbor type primitives is not accepted by protocol: simple value 32 is not recognized',
    );
    rejects('f818', 'cbor: invalid simple value 24 for type primitives', 'syntax');
  });

  it('reads byte strings and text strings both as strings', () => {
    assert.equal(value('4449455446'), 'IETF');
    assert.equal(value('6449455446'), 'IETF');
    assert.equal(value('62c3bc'), 'ü');
    assert.equal(value('42c3bc'), 'ü');
    assert.equal(value('40'), '');
    assert.equal(value('60'), '');
  });

  it("refuses invalid UTF-8 in text strings, keeps byte strings as Go's JSON shows them", () => {
    rejects('62c328', 'cbor: invalid UTF-8 string', 'utf8');
    rejects('63eda080', 'cbor: invalid UTF-8 string'); // an encoded surrogate
    rejects('62c0af', 'cbor: invalid UTF-8 string'); // overlong
    // Go writes one U+FFFD per invalid byte.
    assert.equal(value('4461e28241'), 'a\ufffd\ufffdA');
    assert.equal(value('43ff6162'), '\ufffdab');
  });

  it('reads indefinite-length strings, arrays and maps, which upstream accepts', () => {
    assert.equal(value('5f42010243030405ff'), '\u0001\u0002\u0003\u0004\u0005');
    assert.equal(value('7f657374726561646d696e67ff'), 'streaming');
    assert.deepEqual(value('9f018202039f0405ffff'), [1, [2, 3], [4, 5]]);
    assert.deepEqual(value('bf61610161629f0203ffff'), { a: 1, b: [2, 3] });
    assert.deepEqual(value('bf4346756ef563416d7421ff'), { Fun: true, Amt: -2 });
    assert.equal(value('5fff'), '');
  });

  it('checks each chunk of an indefinite text string on its own', () => {
    // "ü" split across two chunks: each chunk alone is invalid.
    rejects('7f61c361bcff', 'cbor: invalid UTF-8 string');
  });

  it('reads maps into plain objects, keys in input order, __proto__ as an own key', () => {
    const v = value('a2 4161 01 49 5f5f70726f746f5f5f a0') as Record<string, unknown>;
    assert.deepEqual(Object.keys(v), ['a', '__proto__']);
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(JSON.stringify(v), '{"a":1,"__proto__":{}}');
  });
});

describe('decodeCbor: tags', () => {
  it('takes the self-described tag as optional, at the top and inside', () => {
    assert.deepEqual(value('d9d9f7 a1 4161 01'), { a: 1 });
    assert.deepEqual(value('a1 4161 01'), { a: 1 });
    assert.deepEqual(value('a1 4161 d9d9f7 d9d9f7 82 01 d9d9f7 02'), { a: [1, 2] });
  });

  it('reads an unrecognised tag as its content', () => {
    assert.equal(value('d8 20 76 687474703a2f2f7777772e6578616d706c652e636f6d'), 'http://www.example.com');
    assert.deepEqual(value('c4 82 21 19 6ab3'), [-2, 27315]); // decimal fraction: just an array
    assert.deepEqual(value('d9 ffff 82 01 02'), [1, 2]);
  });

  it('refuses bignums (tags 2 and 3) wherever they are', () => {
    rejects(
      'c2 49 010000000000000000',
      'cbor: data item of cbor type tag is not accepted by protocol: bignum',
      'unacceptable',
    );
    rejects('82 01 c3 41 00', 'cbor: data item of cbor type tag is not accepted by protocol: bignum');
  });

  it('turns byte strings under tags 21, 22, 23 into base64url, base64, hex text', () => {
    assert.equal(value('d5 43 fbff01'), '-_8B');
    assert.equal(value('d6 43 fbff01'), '+/8B');
    assert.equal(value('d6 42 fbff'), '+/8=');
    assert.equal(value('d7 43 fbff01'), 'fbff01');
    // The tag reaches the byte strings inside its content (keys too), the nearest tag wins,
    // and text strings are left alone.
    assert.deepEqual(value('d7 a2 4101 4102 4103 d6 4104'), { '01': '02', '03': 'BA==' });
    assert.deepEqual(value('d7 82 6161 4161'), ['a', '61']);
  });

  it('turns date/time tags into RFC 3339 strings with nanoseconds', () => {
    assert.equal(value('c0 74 323031332d30332d32315432303a30343a30305a'), '2013-03-21T20:04:00Z');
    assert.equal(value('c1 1a 514b67b0'), '2013-03-21T20:04:00Z');
    assert.equal(value('c1 fb 41d452d9ec200000'), '2013-03-21T20:04:00.5Z');
    assert.equal(value('c1 f9 bc00'), '1969-12-31T23:59:59Z');
    const withFraction = Buffer.concat([h('c0 78 1e'), Buffer.from('2013-03-21T20:04:00.120000+01:00')]);
    withFraction[2] = 32;
    assert.equal(decodeCbor(withFraction).value, '2013-03-21T20:04:00.12+01:00');
  });

  it('checks what follows tags 0 and 1 with upstream messages', () => {
    rejects('c0 01', 'cbor: tag number 0 must be followed by text string, got positive integer', 'tag');
    rejects(
      'c1 60',
      'cbor: tag number 1 must be followed by integer or floating-point number, got UTF-8 text string',
    );
    rejects('a1 4161 c0 c1 01', 'cbor: tag number 0 must be followed by text string, got tag');
    rejects(
      'c1 1b 7fffffffffffffff',
      'cbor: decoded time cannot be represented in RFC3339 format with sub-second precision: Time.MarshalText: year outside of range [0,9999]',
    );
  });
});

describe('decodeCbor: malformed input', () => {
  it('reports empty input as EOF and a cut item as unexpected EOF', () => {
    rejects('', 'EOF', 'empty');
    for (const s of [
      '18',
      '19 01',
      '1a 0000',
      '1b 00000000000000',
      '42 61',
      'a1 4161',
      '82 01',
      'd9 d9',
      'd9d9f7',
      'c0',
      '5f 41 61',
      '9f 01',
      'bf 4161 01',
    ]) {
      rejects(s, 'unexpected EOF', 'truncated');
    }
  });

  it('never crashes on any prefix of a real body', () => {
    const body = encodeCbor({ a: [1, 'x', { b: 0.5, c: null }], ['d'.repeat(30)]: 'é'.repeat(20) });
    for (let n = 0; n < body.length; n++) {
      assert.throws(() => decodeCbor(body.subarray(0, n)), CborDecodeError);
    }
  });

  it('refuses reserved additional information 28-30 and misplaced indefinite lengths', () => {
    rejects('1c', 'cbor: invalid additional information 28 for type positive integer', 'syntax');
    rejects('3d', 'cbor: invalid additional information 29 for type negative integer');
    rejects('5e', 'cbor: invalid additional information 30 for type byte string');
    rejects('fc', 'cbor: invalid additional information 28 for type primitives');
    rejects('1f', 'cbor: invalid additional information 31 for type positive integer');
    rejects('df 01', 'cbor: invalid additional information 31 for type tag');
    rejects('ff', 'cbor: unexpected "break" code');
    rejects('82 01 ff', 'cbor: unexpected "break" code');
    rejects('bf 4161 ff', 'cbor: unexpected "break" code');
    rejects('5f 61 61 ff', 'cbor: wrong element type UTF-8 text string for indefinite-length byte string');
    rejects('5f 5f ff ff', 'cbor: indefinite-length byte string chunk is not definite-length');
  });

  it('refuses bytes after the item', () => {
    rejects('01 02', 'cbor: 1 bytes of extraneous data starting at index 1', 'extraneous');
    rejects('d9d9f7 a0 d9d9f7 a0', 'cbor: 4 bytes of extraneous data starting at index 4');
  });

  it('refuses lengths that overflow and sizes over the limits', () => {
    rejects(
      '5b ffffffffffffffff',
      'cbor: byte string length 18446744073709551615 is too large, causing integer overflow',
      'limit',
    );
    rejects(
      '9b ffffffffffffffff',
      'cbor: array length 18446744073709551615 is too large, it would cause integer overflow',
    );
    rejects('9b 0000000080000000', 'cbor: exceeded max number of elements 2147483647 for CBOR array');
    rejects('ba 00200001', 'cbor: exceeded max number of key-value pairs 2097152 for CBOR map');
    // A huge declared length over little data ends quickly.
    rejects('9a 7fffffff 01', 'unexpected EOF');
    rejects('5a ffffffff 00', 'unexpected EOF');
  });

  it('takes 10,000 levels of nesting and refuses 10,001, without overflowing the stack', () => {
    const nest = (n: number, open: number, leaf: number[]) =>
      Buffer.concat([Buffer.alloc(n, open), Buffer.from(leaf), Buffer.alloc(open === 0x9f ? n : 0, 0xff)]);
    let v = decodeCbor(nest(10000, 0x81, [0x01])).value;
    for (let i = 0; i < 10000; i++) v = (v as unknown[])[0];
    assert.equal(v, 1);
    rejects(nest(10001, 0x81, [0x01]), 'cbor: exceeded max nested level 10000', 'limit');
    rejects(nest(10001, 0x9f, []), 'cbor: exceeded max nested level 10000');
    // Maps count too, and so does each tag after the first of a chain.
    const maps = Buffer.concat([Buffer.concat(Array.from({ length: 10001 }, () => h('a1 4161'))), h('01')]);
    rejects(maps, 'cbor: exceeded max nested level 10000');
    const tags = (n: number) =>
      Buffer.concat([Buffer.concat(Array.from({ length: n }, () => h('d820'))), h('01')]);
    assert.equal(decodeCbor(tags(10001)).value, 1);
    rejects(tags(10002), 'cbor: exceeded max nested level 10000');
  });

  it('reports well-formedness errors before decode errors wherever they are, as upstream does', () => {
    // An invalid UTF-8 text comes first, a NaN later: the NaN is what upstream reports.
    rejects(
      '82 62c328 f97e00',
      'cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN',
    );
  });

  it('reports the first decode error in reading order', () => {
    rejects('82 62c328 1bffffffffffffffff', 'cbor: invalid UTF-8 string');
    rejects(
      'a2 4161 f7 4162 62c328',
      'cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized',
    );
  });

  it('survives random bytes: only CborDecodeError, never a hang', () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let i = 0; i < 5000; i++) {
      const bytes = Buffer.alloc(1 + (rand() % 40));
      for (let j = 0; j < bytes.length; j++) bytes[j] = rand() & 0xff;
      try {
        decodeCbor(bytes);
      } catch (err) {
        assert.ok(err instanceof CborDecodeError, `${bytes.toString('hex')}: ${String(err)}`);
      }
    }
  });
});

describe('decodeCbor: map keys and the top-level type', () => {
  it('refuses keys that are not strings with upstream messages', () => {
    rejects('a1 01 02', 'cbor: cannot unmarshal positive integer into Go value of type string', 'type');
    rejects('a1 20 02', 'cbor: cannot unmarshal negative integer into Go value of type string');
    rejects('a1 80 02', 'cbor: cannot unmarshal array into Go value of type string');
    rejects('a1 f5 02', 'cbor: cannot unmarshal primitives into Go value of type string');
    rejects('a1 f93800 02', 'cbor: cannot unmarshal primitives into Go value of type string');
  });

  it('takes a null key as the key before it, "" at first (upstream reuses its key variable)', () => {
    assert.deepEqual(value('a1 f6 01'), { '': 1 });
    assert.deepEqual(decodeCbor(h('a2 4161 01 f6 02')).duplicates, [{ path: 'a', ordinal: 1 }]);
  });

  it("with top: 'object', takes maps and null and refuses the rest as upstream's map destination does", () => {
    const top = (s: string) => decodeCbor(h(s), { top: 'object' }).value;
    assert.deepEqual(top('d9d9f7 a0'), {});
    assert.equal(top('f6'), null);
    const refuses = (s: string, message: string) => assert.throws(() => top(s), { message });
    refuses('80', 'cbor: cannot unmarshal array into Go value of type map[string]interface {}');
    refuses('4161', 'cbor: cannot unmarshal byte string into Go value of type map[string]interface {}');
    refuses('6161', 'cbor: cannot unmarshal UTF-8 text string into Go value of type map[string]interface {}');
    refuses('62c328', 'cbor: invalid UTF-8 string');
    refuses('01', 'cbor: cannot unmarshal positive integer into Go value of type map[string]interface {}');
    refuses('f5', 'cbor: cannot unmarshal primitives into Go value of type map[string]interface {}');
    refuses('c1 01', 'cbor: cannot unmarshal positive integer into Go value of type map[string]interface {}');
  });
});

describe('decodeCbor: duplicate map keys', () => {
  // {"metadata": {"name": "a", "name": "b"}, "spec": {"containers": [{"image": "x", "image": "y"}]}, "spec"…}
  const nested = h(`
    a3
      48 6d65746164617461  a2  44 6e616d65 4161  44 6e616d65 4162
      44 73706563  a1  4a 636f6e7461696e657273  81  a2  45 696d616765 4178  45 696d616765 4179
      48 6d65746164617461  a0`);

  it('reports each repeat with its path and reading-order ordinal; the last value wins', () => {
    const { value: v, duplicates } = decodeCbor(nested);
    assert.deepEqual(duplicates, [
      { path: 'metadata.name', ordinal: 2 },
      { path: 'spec.containers[0].image', ordinal: 6 },
      { path: 'metadata', ordinal: 7 },
    ]);
    // As JSON.parse: the repeated key keeps its first position and takes the last value.
    assert.deepEqual(v, { metadata: {}, spec: { containers: [{ image: 'y' }] } });
    assert.deepEqual(Object.keys(v as object), ['metadata', 'spec']);
  });

  it('treats a text key and a byte key with the same content as the same key', () => {
    assert.deepEqual(decodeCbor(h('a2 4161 01 6161 02')).duplicates, [{ path: 'a', ordinal: 1 }]);
  });

  it('gives ordinals of asked-for paths, for ordering unknown fields among duplicates', () => {
    const { ordinals } = decodeCbor(nested, { ordinalsOf: new Set(['spec.containers[0].image', 'spec']) });
    assert.deepEqual(
      [...ordinals],
      [
        ['spec', 3],
        ['spec.containers[0].image', 5],
      ],
    );
  });

  it("with duplicateKeys: 'reject', fails as upstream does, at the first repeat", () => {
    assert.throws(() => decodeCbor(nested, { duplicateKeys: 'reject' }), {
      name: 'CborDecodeError',
      message: 'cbor: found duplicate map key "name" at map element index 1',
    });
    assert.throws(
      () => decodeCbor(h('a2 4161 01 4161 02'), { duplicateKeys: 'reject' }),
      (err: unknown) => {
        assert.ok(err instanceof CborDecodeError);
        assert.equal(err.kind, 'duplicate-key');
        return true;
      },
    );
    // Go's %#v quoting of the key.
    assert.throws(() => decodeCbor(h('a2 42 0a22 01 42 0a22 02'), { duplicateKeys: 'reject' }), {
      message: 'cbor: found duplicate map key "\\n\\"" at map element index 1',
    });
  });

  it("with 'reject', a repeat overrides an earlier error of its own map, not of an outer one", () => {
    const own = h('a3 4161 f7 4162 01 4162 02');
    assert.throws(() => decodeCbor(own, { duplicateKeys: 'reject' }), {
      message: 'cbor: found duplicate map key "b" at map element index 2',
    });
    const outer = h('82 f7 a2 4162 01 4162 02');
    assert.throws(() => decodeCbor(outer, { duplicateKeys: 'reject' }), {
      message:
        'cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized',
    });
  });
});
