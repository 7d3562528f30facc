import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  children,
  contents,
  namedBits,
  objectIdentifier,
  sequence,
  time,
  tlv,
  unsignedInteger,
} from './der.ts';

const hex = (b: Buffer) => b.toString('hex');

describe('DER', () => {
  it('uses the short length form below 128 bytes and the long form above', () => {
    assert.equal(hex(tlv(0x04, Buffer.alloc(3))), '0403000000');
    const long = tlv(0x04, Buffer.alloc(300));
    assert.equal(hex(long.subarray(0, 4)), '0482012c');
    assert.equal(long.length, 304);
  });

  it('writes object identifiers with base-128 arcs', () => {
    assert.equal(hex(objectIdentifier('1.2.840.10045.4.3.2')), '06082a8648ce3d040302');
    assert.equal(hex(objectIdentifier('2.5.29.17')), '0603551d11');
  });

  it('keeps integers positive and minimal', () => {
    assert.equal(hex(unsignedInteger(Buffer.from([0x80]))), '02020080');
    assert.equal(hex(unsignedInteger(Buffer.from([0, 0, 5]))), '020105');
  });

  it('drops trailing zero bits of named bit strings', () => {
    assert.equal(hex(namedBits([0, 2])), '030205a0');
    assert.equal(hex(namedBits([0, 5, 6])), '03020186');
    assert.equal(hex(namedBits([8])), '0303070080');
  });

  it('writes UTCTime before 2050 and GeneralizedTime after', () => {
    assert.equal(time(new Date('2026-11-22T10:20:30.999Z')).toString('ascii', 2), '261122102030Z');
    assert.equal(time(new Date('2050-01-01T00:00:00Z')).toString('ascii', 2), '20500101000000Z');
    assert.equal(time(new Date('2050-01-01T00:00:00Z'))[0], 0x18);
  });

  it('reads back what it writes', () => {
    const inner = [tlv(0x02, Buffer.from([1])), tlv(0x04, Buffer.alloc(200, 7))];
    const parts = children(sequence(...inner));
    assert.deepEqual(parts, inner);
    assert.deepEqual(contents(parts[1]), Buffer.alloc(200, 7));
  });

  it('refuses truncated input instead of reading past it', () => {
    assert.throws(() => children(Buffer.from([0x30, 0x05, 0x02, 0x01])), /truncated/);
  });
});
