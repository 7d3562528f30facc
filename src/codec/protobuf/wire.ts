// Protobuf's wire primitives: a growing writer and a bounds-checked reader. The writer patches
// lengths in place (one byte reserved, content moved only past 127 bytes) so nested messages cost no
// extra buffers; the reader never reads past its end and names what was cut short.

import { ProtobufError } from './errors.ts';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

const TWO_32 = 4294967296;

/** Bytes a varint of `n` (a non-negative safe integer) takes. */
function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

export class Writer {
  private buf: Buffer;
  pos = 0;

  constructor(initial = 256) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A varint of a non-negative safe integer. */
  uvarint(n: number): void {
    this.ensure(10);
    while (n >= 128) {
      this.buf[this.pos++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    this.buf[this.pos++] = n;
  }

  /**
   * A signed integer as Go's generated code writes int32 and int64 (`uint64(v)`): negatives as their
   * 64-bit two's complement, always ten bytes.
   */
  int(v: number): void {
    if (v >= 0) {
      this.uvarint(v);
      return;
    }
    let u = BigInt.asUintN(64, BigInt(Math.trunc(v)));
    this.ensure(10);
    while (u >= 128n) {
      this.buf[this.pos++] = Number(u & 127n) | 128;
      u >>= 7n;
    }
    this.buf[this.pos++] = Number(u);
  }

  tag(field: number, wireType: number): void {
    this.uvarint(field * 8 + wireType);
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** Length-prefixed bytes. */
  bytes(bytes: Uint8Array): void {
    this.uvarint(bytes.length);
    this.raw(bytes);
  }

  /** Length-prefixed UTF-8. */
  string(s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    this.uvarint(n);
    this.ensure(n);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  double(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  /** Starts a length-delimited value; pass the result to `finish` once its content is written. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  finish(start: number): void {
    const len = this.pos - start - 1;
    const size = varintSize(len);
    if (size > 1) {
      this.ensure(size - 1);
      this.buf.copyWithin(start + size, start + 1, this.pos);
      this.pos += size - 1;
    }
    let n = len;
    let at = start;
    while (n >= 128) {
      this.buf[at++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    this.buf[at] = n;
  }

  /** The bytes written so far; copied only when most of the buffer would be slack. */
  finishBuffer(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    return this.pos * 2 >= this.buf.length ? out : Buffer.from(out);
  }
}

export class Reader {
  pos: number;
  /** The low and high 32 bits of the last varint read. */
  lo = 0;
  hi = 0;

  constructor(
    readonly buf: Uint8Array,
    pos = 0,
    readonly end = buf.length,
  ) {
    this.pos = pos;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** Reads a varint into `lo`/`hi`; a varint longer than ten bytes or cut off is an error. */
  varint(): void {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('unexpected end of data in varint');
      const b = this.buf[this.pos++];
      if (i < 4) lo |= (b & 127) << (7 * i);
      else if (i === 4) {
        lo |= (b & 15) << 28;
        hi |= (b & 127) >> 4;
      } else hi |= (b & 127) << (7 * i - 32);
      if (b < 128) {
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    throw new ProtobufError('varint overflows 64 bits');
  }

  /** A varint as an unsigned number; above 2^53 it loses precision as JSON numbers do. */
  uint(): number {
    this.varint();
    return this.hi * TWO_32 + this.lo;
  }

  /** A varint as Go's int64. */
  int64(): number {
    this.varint();
    return (this.hi | 0) * TWO_32 + this.lo;
  }

  /** A varint as Go's int32 (its low 32 bits, as `int32(v)` truncates). */
  int32(): number {
    this.varint();
    return this.lo | 0;
  }

  bool(): boolean {
    this.varint();
    return this.lo !== 0 || this.hi !== 0;
  }

  double(): number {
    if (this.end - this.pos < 8) throw new ProtobufError('unexpected end of data in fixed64');
    const v = Buffer.from(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength).readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** A length prefix, checked against the data left. */
  length(): number {
    const n = this.uint();
    if (n > this.end - this.pos) {
      throw new ProtobufError(
        `length ${n} runs past the end of the data (${this.end - this.pos} bytes left)`,
      );
    }
    return n;
  }

  /** Length-prefixed bytes, as a view into the input. */
  bytes(): Uint8Array {
    const n = this.length();
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    const n = this.length();
    const s = Buffer.from(this.buf.buffer, this.buf.byteOffset + this.pos, n).toString('utf8');
    this.pos += n;
    return s;
  }

  /** A tag: `[field, wireType]`. Field 0 and group wire types are errors, as in upstream's decoders. */
  tag(): [number, number] {
    const t = this.uint();
    const field = Math.floor(t / 8);
    const wireType = t % 8;
    if (field <= 0) throw new ProtobufError(`illegal tag ${t} (wire type ${wireType})`);
    if (field > 536870911) throw new ProtobufError(`illegal field number ${field}`);
    if (wireType === 3 || wireType === 4) throw new ProtobufError(`unsupported group wire type ${wireType}`);
    if (wireType > 5) throw new ProtobufError(`illegal wire type ${wireType}`);
    return [field, wireType];
  }

  /** Skips a field's value of the given wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_FIXED64:
        this.advance(8);
        return;
      case WIRE_BYTES:
        this.advance(this.length());
        return;
      case WIRE_FIXED32:
        this.advance(4);
        return;
      default:
        throw new ProtobufError(`illegal wire type ${wireType}`);
    }
  }

  private advance(n: number): void {
    if (this.end - this.pos < n) throw new ProtobufError('unexpected end of data');
    this.pos += n;
  }
}
