// The piece buffers: a buffer given back is lent again, one given back twice or never lent is not,
// and what is kept for reuse stays within its bound.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PieceBuffers } from './piece-buffers.ts';

describe('piece buffers', () => {
  it('lends a buffer of exactly the length asked, and lends it again once given back', () => {
    const pool = new PieceBuffers();
    const a = pool.take(10_000);
    assert.equal(a.length, 10_000);
    assert.equal(a.buffer.byteLength, 16 * 1024, 'the class that holds it');
    const b = pool.take(9_000);
    assert.notEqual(b.buffer, a.buffer, 'not while the first is out');
    pool.release(a);
    assert.equal(pool.held, 16 * 1024);
    const c = pool.take(12_345);
    assert.equal(c.buffer, a.buffer, 'the same memory, reused');
    assert.equal(c.length, 12_345);
    assert.equal(pool.held, 0);
    const other = pool.take(5_000);
    assert.equal(other.buffer.byteLength, 8 * 1024, 'another class, its own buffer');
  });

  it('takes back each buffer once, and nothing it did not lend', () => {
    const pool = new PieceBuffers();
    const a = pool.take(20_000);
    pool.release(a);
    pool.release(a);
    assert.equal(pool.held, 32 * 1024, 'a second release changes nothing');
    const first = pool.take(20_000);
    const second = pool.take(20_000);
    assert.notEqual(first.buffer, second.buffer, 'one buffer is never out twice');

    // Node's own pool: a small Buffer shares its memory with others.
    const small = Buffer.allocUnsafe(100);
    pool.release(small);
    pool.release(Buffer.from(new ArrayBuffer(8 * 1024)));
    assert.equal(pool.held, 0);
  });

  it('leaves pieces below and above its classes to ordinary buffers', () => {
    const pool = new PieceBuffers();
    const tiny = pool.take(1_000);
    const huge = pool.take(300 * 1024);
    assert.equal(tiny.length, 1_000);
    assert.equal(huge.length, 300 * 1024);
    pool.release(tiny);
    pool.release(huge);
    assert.equal(pool.held, 0);
  });

  it('keeps at most its bound for reuse', () => {
    const pool = new PieceBuffers(64 * 1024);
    const out = Array.from({ length: 5 }, () => pool.take(30_000));
    for (const b of out) pool.release(b);
    assert.equal(pool.held, 64 * 1024, 'two of the five 32 KiB buffers');
    const again = Array.from({ length: 3 }, () => pool.take(30_000));
    assert.equal(new Set(again.map((b) => b.buffer)).size, 3);
    assert.equal(pool.held, 0);
  });
});
