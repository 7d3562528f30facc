// Protocol buffers' wire format, the little of it etcd's messages need: varints, length-delimited
// bytes and nested messages. Hand-written because the generic codecs (protobufjs through the etcd3
// client) built a JavaScript object per message and per field on every request and every watch
// event, and turned 64-bit integers into strings through a Long; here integers are plain numbers
// (revisions stay far below 2^53) and bytes are views into the received buffer, not copies.

/** Bytes a varint of `n` takes (n a non-negative safe integer). */
export function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Size of a length-delimited field (tag, length, body) whose body is `len` bytes. */
export function delimitedSize(field: number, len: number): number {
  return varintSize(field << 3) + varintSize(len) + len;
}

/** Size of a varint field holding `n` (0 is not written: proto3's default). */
export function varintFieldSize(field: number, n: number): number {
  return n === 0 ? 0 : varintSize(field << 3) + varintSize(n);
}

/** Writes into a buffer sized beforehand by the message's size function. */
export class Writer {
  pos: number;

  constructor(
    readonly buf: Buffer,
    start = 0,
  ) {
    this.pos = start;
  }

  varint(n: number): void {
    const buf = this.buf;
    while (n >= 0x80) {
      buf[this.pos++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 128);
    }
    buf[this.pos++] = n;
  }

  /** A varint field; skipped when 0. */
  uint(field: number, n: number): void {
    if (n === 0) return;
    this.varint(field << 3);
    this.varint(n);
  }

  bool(field: number, b: boolean | undefined): void {
    if (b === true) this.uint(field, 1);
  }

  /** A bytes field; skipped when empty or absent. */
  bytes(field: number, b: Uint8Array | undefined): void {
    if (b === undefined || b.length === 0) return;
    this.varint((field << 3) | 2);
    this.varint(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** The head of a nested message of `len` bytes; the caller writes its body next. */
  nested(field: number, len: number): void {
    this.varint((field << 3) | 2);
    this.varint(len);
  }
}

/** Size of a bytes field as Writer.bytes writes it. */
export function bytesFieldSize(field: number, b: Uint8Array | undefined): number {
  return b === undefined || b.length === 0 ? 0 : delimitedSize(field, b.length);
}

/**
 * Reads a message's fields in order. `next()` answers the next field number (0 at the end) and
 * leaves its wire type in `wireType`; the caller then reads its value with one of the methods or
 * skips it.
 */
export class Reader {
  pos: number;
  wireType = 0;

  constructor(
    readonly buf: Buffer,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  next(): number {
    if (this.pos >= this.end) return 0;
    const tag = this.varint();
    this.wireType = tag & 7;
    return tag >>> 3;
  }

  varint(): number {
    const buf = this.buf;
    let result = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.end) throw new RangeError('truncated varint');
      const b = buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
      if (scale > 2 ** 63) throw new RangeError('varint too long');
    }
  }

  bool(): boolean {
    return this.varint() !== 0;
  }

  /** A length-delimited field's bounds: [start, end) in `buf`. */
  delimited(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    const end = start + len;
    if (end > this.end) throw new RangeError('truncated field');
    this.pos = end;
    return [start, end];
  }

  /** A bytes field as a view into the buffer (no copy). */
  bytes(): Buffer {
    const [start, end] = this.delimited();
    return this.buf.subarray(start, end);
  }

  string(): string {
    const [start, end] = this.delimited();
    return this.buf.toString('utf8', start, end);
  }

  skip(): void {
    switch (this.wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        this.pos += 8;
        return;
      case 2:
        this.delimited();
        return;
      case 5:
        this.pos += 4;
        return;
      default:
        throw new RangeError(`unsupported wire type ${this.wireType}`);
    }
  }
}
