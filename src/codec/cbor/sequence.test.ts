import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCbor } from './decode.ts';
import { encodeCbor } from './encode.ts';
import { CborDecodeError } from './errors.ts';
import {
  CborSequenceReader,
  encodeCborSeqItem,
  encodeCborWatchEvent,
  encodeCborWatchEventFromBody,
  splitCborSequence,
} from './sequence.ts';

const object = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', resourceVersion: '7' } };

describe('cbor-seq watch items', () => {
  it('writes an event as upstream does: tagged map of type then object, the object tagged again', () => {
    const event = encodeCborWatchEvent('ADDED', object);
    const want = Buffer.concat([
      Buffer.from('d9d9f7a2', 'hex'),
      Buffer.from('4474797065', 'hex'), // h'type'
      Buffer.from('45', 'hex'),
      Buffer.from('ADDED'),
      Buffer.from('466f626a656374', 'hex'), // h'object'
      encodeCbor(object), // starts with its own d9d9f7
    ]);
    assert.equal(event.toString('hex'), want.toString('hex'));
    assert.deepEqual(decodeCbor(event).value, { type: 'ADDED', object });
  });

  it('reuses already-encoded object bytes, adding the tag when they lack it', () => {
    const body = encodeCbor(object);
    assert.deepEqual(
      encodeCborWatchEventFromBody('MODIFIED', body),
      encodeCborWatchEvent('MODIFIED', object),
    );
    assert.deepEqual(
      encodeCborWatchEventFromBody('MODIFIED', body.subarray(3)),
      encodeCborWatchEvent('MODIFIED', object),
    );
  });

  it('each sequence item is a whole body', () => {
    assert.deepEqual(encodeCborSeqItem({ a: 1 }), encodeCbor({ a: 1 }));
  });

  it('splits a sequence into its items', () => {
    const events = ['ADDED', 'MODIFIED', 'DELETED'].map((t) => encodeCborWatchEvent(t, object));
    const items = splitCborSequence(Buffer.concat(events));
    assert.deepEqual(items, events);
    assert.deepEqual(
      items.map((i) => (decodeCbor(i).value as { type: string }).type),
      ['ADDED', 'MODIFIED', 'DELETED'],
    );
    assert.throws(
      () => splitCborSequence(Buffer.concat([events[0], events[1].subarray(0, 10)])),
      CborDecodeError,
    );
  });

  it('reads a sequence arriving in chunks of any size', () => {
    const events = ['ADDED', 'MODIFIED', 'BOOKMARK'].map((t) => encodeCborWatchEvent(t, object));
    const all = Buffer.concat(events);
    for (const size of [1, 2, 7, 64, all.length]) {
      const reader = new CborSequenceReader();
      const got: Buffer[] = [];
      for (let i = 0; i < all.length; i += size) got.push(...reader.push(all.subarray(i, i + size)));
      reader.end();
      assert.deepEqual(got, events, `chunk size ${size}`);
    }
    const cut = new CborSequenceReader();
    cut.push(events[0].subarray(0, 5));
    assert.throws(() => cut.end(), { message: 'unexpected EOF' });
    assert.throws(() => new CborSequenceReader().push(Buffer.from('1c', 'hex')), CborDecodeError);
  });
});
