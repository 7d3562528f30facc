import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { META_DEFINITIONS } from '../../schema/meta.ts';
import type { KindMessages } from './index.ts';
import { decodeEnvelope, decodeMessage, decodeProtobuf, encodeProtobuf, ProtobufError } from './index.ts';
import { Reader, Writer } from './wire.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('wire primitives', () => {
  it('writes varints, negatives as ten bytes like Go', () => {
    const w = new Writer(1);
    w.uvarint(0);
    w.uvarint(1);
    w.uvarint(300);
    w.uvarint(2 ** 53 - 1);
    w.int(-1);
    assert.equal(hex(w.finishBuffer()), `0001ac02${'ffffffffffffff0f'}${'ffffffffffffffffff01'}`);
  });

  it('reads back what it writes', () => {
    const w = new Writer(4);
    for (const n of [0, 127, 128, 16384, 2 ** 31, 2 ** 40]) w.uvarint(n);
    w.int(-5);
    w.int(-(2 ** 31));
    w.string('héllo');
    const r = new Reader(w.finishBuffer());
    for (const n of [0, 127, 128, 16384, 2 ** 31, 2 ** 40]) assert.equal(r.uint(), n);
    assert.equal(r.int64(), -5);
    assert.equal(r.int32(), -(2 ** 31));
    assert.equal(r.string(), 'héllo');
    assert.ok(r.done);
  });

  it('patches lengths past 127 bytes in place', () => {
    const w = new Writer(2);
    const start = w.begin();
    w.raw(new Uint8Array(300).fill(7));
    w.finish(start);
    const out = w.finishBuffer();
    assert.equal(hex(out.subarray(0, 2)), 'ac02');
    assert.equal(out.length, 302);
    assert.ok(out.subarray(2).every((b) => b === 7));
  });

  it('refuses truncated and overlong varints, lengths past the end, bad tags', () => {
    assert.throws(() => new Reader(Uint8Array.of(0x80, 0x80)).uint(), ProtobufError);
    assert.throws(() => new Reader(new Uint8Array(11).fill(0xff)).uint(), /overflows/);
    assert.throws(() => new Reader(Uint8Array.of(0x05, 0x61)).bytes(), /runs past the end/);
    assert.throws(() => new Reader(Uint8Array.of(0x00)).tag(), /illegal tag/);
    assert.throws(() => new Reader(Uint8Array.of(0x0b)).tag(), /group/);
    assert.throws(() => new Reader(Uint8Array.of(0x0e)).tag(), /illegal wire type/);
    assert.throws(() => new Reader(Uint8Array.of(0x01, 0x02)).skip(1), /unexpected end/);
  });
});

// A small kind exercising each value shape, independent of the served kinds.
const node = {
  type: 'object' as const,
  properties: {
    apiVersion: { type: 'string' as const },
    kind: { type: 'string' as const },
    metadata: { ref: 'ObjectMeta', proto: 1 },
    name: { type: 'string' as const, proto: 2, protoKeepZero: true },
    count: { type: 'integer' as const, format: 'int32', proto: 3 },
    ptr: { type: 'integer' as const, format: 'int64', proto: 4, protoPointer: true },
    flag: { type: 'boolean' as const, proto: 5 },
    tags: { type: 'array' as const, items: { type: 'integer' as const, format: 'int64' }, proto: 6 },
    port: { intOrString: true, proto: 7 },
    size: { intOrString: true, goType: 'resource.Quantity', proto: 8, protoPointer: true },
    blob: { type: 'string' as const, format: 'byte', proto: 9 },
    when: { ref: 'Time', proto: 10, protoPointer: true },
    ratio: { type: 'number' as const, proto: 11 },
  },
};
const Thing: KindMessages = {
  group: 'example.com',
  version: 'v1',
  kind: 'Thing',
  root: node,
  get definitions() {
    return definitions;
  },
};
const definitions = META_DEFINITIONS;
const lookup = (_v: string, k: string) => (k === 'Thing' ? (Thing as never) : undefined);

describe('schema-driven messages', () => {
  it('writes value fields as zeros and decodes them away again', () => {
    const body = encodeProtobuf(Thing, { apiVersion: 'example.com/v1', kind: 'Thing' });
    const env = decodeEnvelope(body);
    assert.equal(env.apiVersion, 'example.com/v1');
    assert.equal(env.kind, 'Thing');
    // metadata (value struct), name '', count 0, flag false, port {0,0,''}, blob '', ratio 0.0
    assert.equal(
      hex(env.raw),
      [
        '0a10', // metadata: ObjectMeta's value fields, all empty
        '0a00120' + '01a00220' + '02a00320' + '03800' + '4200',
        '1200', // name
        '1800', // count
        '2800', // flag
        '3a06080010001a00', // port: IntOrString {0, 0, ''}
        '4a00', // blob
        '590000000000000000', // ratio
      ].join(''),
    );
    // The envelope ends with empty contentEncoding and contentType, as upstream writes them.
    assert.equal(hex(body.subarray(-4)), '1a002200');
    assert.deepEqual(decodeProtobuf(lookup, body), {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: {},
      name: '',
      port: 0,
    });
  });

  it('round-trips every shape', () => {
    const obj = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 'n', labels: { b: '2', a: '1' } },
      name: 'x',
      count: -7,
      ptr: 0,
      flag: true,
      tags: [1, -1, 2 ** 40],
      port: 'http',
      size: '1Gi',
      blob: 'AAEC',
      when: '1969-12-31T23:59:59Z',
      ratio: 0.5,
    };
    assert.deepEqual(decodeProtobuf(lookup, encodeProtobuf(Thing, obj)), {
      ...obj,
      metadata: { name: 'n', labels: { a: '1', b: '2' } },
    });
  });

  it('accepts packed numbers, skips unknown fields, merges a message seen twice', () => {
    // tags packed (6, wire 2), an unknown varint field 99, metadata twice (name, then namespace).
    const raw = Buffer.concat([
      Buffer.from('0a030a0161', 'hex'),
      Buffer.from('3203010203', 'hex'),
      Buffer.from('98060a', 'hex'),
      Buffer.from('0a031a0162', 'hex'),
    ]);
    const out = decodeMessage(Thing, raw);
    assert.deepEqual(out.tags, [1, 2, 3]);
    assert.deepEqual(out.metadata, { name: 'a', namespace: 'b' });
  });

  it('refuses malformed bodies with a ProtobufError', () => {
    const good = encodeProtobuf(Thing, { name: 'x', tags: [1] });
    assert.throws(() => decodeProtobuf(lookup, good.subarray(0, 3)), /does not appear to be a protobuf/);
    // Every truncation of a valid body fails cleanly (or decodes a prefix) and never hangs.
    for (let n = 4; n < good.length; n++) {
      try {
        decodeProtobuf(lookup, good.subarray(0, n));
      } catch (err) {
        assert.ok(err instanceof ProtobufError, `cut at ${n}: ${err}`);
      }
    }
    // name (field 2) sent as a varint: wrong wire type.
    assert.throws(() => decodeMessage(Thing, Buffer.from('1001', 'hex')), /wrong wire type varint for name/);
    // An IntOrString with an impossible type.
    assert.throws(() => decodeMessage(Thing, Buffer.from('3a020802', 'hex')), /IntOrString/);
    // An empty quantity does not parse upstream either.
    assert.throws(() => decodeMessage(Thing, Buffer.from('4200', 'hex')), /quantities/);
    // A kind nobody serves.
    const other = Buffer.from(good);
    other[other.indexOf('Thing')] = 'X'.charCodeAt(0);
    assert.throws(() => decodeProtobuf(lookup, other), /no kind "Xhing" is registered/);
  });

  it('fuzzed input never escapes as anything but ProtobufError', () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const base = encodeProtobuf(Thing, { name: 'x', tags: [1, 2], port: 3, when: '2024-01-01T00:00:00Z' });
    for (let i = 0; i < 2000; i++) {
      const b = Buffer.from(base);
      for (let j = 0; j < 3; j++) b[4 + (rand() % (b.length - 4))] = rand() & 0xff;
      try {
        decodeProtobuf(lookup, b);
      } catch (err) {
        assert.ok(err instanceof ProtobufError, String(err));
      }
    }
  });

  it('refuses wrong JSON types on encode', () => {
    assert.throws(() => encodeProtobuf(Thing, { count: 'x' }), /count: expected an integer/);
    assert.throws(() => encodeProtobuf(Thing, { tags: 'x' }), /tags: expected a list/);
    assert.throws(() => encodeProtobuf(Thing, { when: 'yesterday' }), ProtobufError);
  });
});
