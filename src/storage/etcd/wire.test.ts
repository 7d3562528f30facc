import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeRangeResponse,
  decodeTxnResponse,
  decodeWatchResponse,
  encodeRange,
  encodeTxn,
} from './messages.ts';
import { bytesFieldSize, delimitedSize, Reader, varintFieldSize, varintSize, Writer } from './wire.ts';

/** A message built field by field: [field, value] with numbers as varints and buffers as bytes. */
function message(fields: [number, number | Buffer][]): Buffer {
  const size = fields.reduce(
    (a, [f, v]) => a + (typeof v === 'number' ? varintFieldSize(f, v) : delimitedSize(f, v.length)),
    0,
  );
  const w = new Writer(Buffer.alloc(size));
  for (const [f, v] of fields) {
    if (typeof v === 'number') w.uint(f, v);
    else {
      w.nested(f, v.length);
      w.buf.set(v, w.pos);
      w.pos += v.length;
    }
  }
  return w.buf;
}

describe('etcd wire format', () => {
  it('varints round-trip up to 2^53', () => {
    for (const n of [0, 1, 127, 128, 300, 2 ** 31, 2 ** 32 + 5, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER]) {
      const w = new Writer(Buffer.alloc(varintSize(n)));
      w.varint(n);
      assert.equal(w.pos, varintSize(n));
      assert.equal(new Reader(w.buf).varint(), n);
    }
  });

  it('a truncated field is refused, not read past the end', () => {
    const buf = message([[2, Buffer.from('abcdef')]]);
    assert.throws(() => new Reader(buf, 0, buf.length - 1).bytes());
    assert.throws(() => new Reader(Buffer.from([0x80]), 0).varint());
  });

  it('requests are framed for gRPC with their exact length', () => {
    const range = encodeRange({
      key: Buffer.from('/a'),
      rangeEnd: Buffer.from('/b'),
      limit: 500,
      revision: 7,
    });
    assert.equal(range[0], 0);
    assert.equal(range.readUInt32BE(1), range.length - 5);
    assert.equal(range.length - 5, bytesFieldSize(1, Buffer.from('/a')) * 2 + varintFieldSize(3, 500) + 2);
    const txn = encodeTxn({
      compare: [{ key: Buffer.from('/k'), target: 'mod', result: 'equal', modRevision: 0 }],
      success: [{ put: { key: Buffer.from('/k'), value: Buffer.alloc(2000, 1) } }],
      failure: [{ range: { key: Buffer.from('/k') } }],
    });
    assert.equal(txn.readUInt32BE(1), txn.length - 5);
    // The compare's revision is in a oneof: written even when 0 (field 6, value 0).
    const compare = new Reader(txn, 5);
    assert.equal(compare.next(), 1);
    const [start, end] = compare.delimited();
    assert.ok(txn.subarray(start, end).includes(Buffer.from([6 << 3, 0])));
  });

  it('answers decode with keys and values as views and revisions as numbers', () => {
    const header = message([
      [3, 2 ** 40],
      [4, 9],
    ]);
    const kv = message([
      [1, Buffer.from('/registry/x')],
      [2, 5],
      [3, 2 ** 40],
      [4, 2],
      [5, Buffer.from('{"a":1}')],
    ]);
    const range = message([
      [1, header],
      [2, kv],
      [3, 1],
      [4, 12],
    ]);
    const res = decodeRangeResponse(range);
    assert.deepEqual(res.header, { revision: 2 ** 40, raftTerm: 9 });
    assert.equal(res.more, true);
    assert.equal(res.count, 12);
    assert.equal(res.kvs[0]?.key.toString(), '/registry/x');
    assert.equal(res.kvs[0]?.value.toString(), '{"a":1}');
    assert.equal(res.kvs[0]?.modRevision, 2 ** 40);
    assert.equal(res.kvs[0]?.value.buffer, range.buffer);

    const txn = decodeTxnResponse(
      message([
        [1, header],
        [3, message([[1, range]])],
      ]),
    );
    assert.equal(txn.succeeded, false);
    assert.equal(txn.responses[0]?.range?.kvs[0]?.version, 2);

    const event = message([
      [1, 1],
      [2, kv],
      [3, kv],
    ]);
    const watch = decodeWatchResponse(
      message([
        [1, header],
        [2, 3],
        [11, event],
        [11, message([[2, kv]])],
      ]),
    );
    assert.equal(watch.watchId, 3);
    assert.deepEqual(
      watch.events.map((e) => [e.type, e.prevKv !== undefined]),
      [
        ['delete', true],
        ['put', false],
      ],
    );
    const compacted = decodeWatchResponse(
      message([
        [1, header],
        [4, 1],
        [5, 77],
        [6, Buffer.from('compacted')],
      ]),
    );
    assert.deepEqual(
      [compacted.canceled, compacted.compactRevision, compacted.cancelReason],
      [true, 77, 'compacted'],
    );
  });

  it('unknown fields are skipped', () => {
    const res = decodeRangeResponse(
      message([
        [9, 5],
        [10, Buffer.from('x')],
        [4, 3],
      ]),
    );
    assert.equal(res.count, 3);
  });
});
