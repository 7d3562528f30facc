// Encoding JSON-shaped values the way upstream's CBOR encode mode writes unstructured content:
// strings (values and map keys) as byte strings, map keys sorted bytewise by their encoded form
// (RFC 8949 4.2.1, which for byte-string keys means shorter keys first), integers and lengths in
// their shortest head, floats in the narrowest of half, single and double width that keeps the value,
// NaN and infinities refused, definite lengths only. A body starts with the self-described tag.
// Objects follow JSON.stringify's rules for what is written, so a value encodes to the same data in
// JSON and in CBOR. Iterative, so that depth costs memory and never our stack.

import * as errorsModule from './errors.ts';
import * as float16Module from './float16.ts';
import * as headModule from './head.ts';

// Bound once: under the test loader, imported bindings are getters, and these are read per byte.
const { CborEncodeError } = errorsModule;
const { exactHalf, fitsSingle } = float16Module;
const {
  MAJOR_ARRAY,
  MAJOR_BYTES,
  MAJOR_MAP,
  MAJOR_NINT,
  MAJOR_SIMPLE,
  MAJOR_UINT,
  SELF_DESCRIBED_PREFIX,
  SIMPLE_FALSE,
  SIMPLE_NULL,
  SIMPLE_TRUE,
} = headModule;

const TWO_63 = 2 ** 63;
const MIN_INT64 = -(2n ** 63n);
const MAX_UINT64 = 2n ** 64n - 1n;

/** Cycles have no JSON form; a depth no decoder accepts tells one apart from deep data. */
const MAX_ENCODE_DEPTH = 100000;

class Writer {
  buf: Buffer;
  len = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** A head with an argument of at most 2^53 - 1. */
  head(major: number, n: number): void {
    const m = major << 5;
    this.ensure(9);
    const { buf } = this;
    if (n < 24) buf[this.len++] = m | n;
    else if (n <= 0xff) {
      buf[this.len++] = m | 24;
      buf[this.len++] = n;
    } else if (n <= 0xffff) {
      buf[this.len++] = m | 25;
      buf.writeUInt16BE(n, this.len);
      this.len += 2;
    } else if (n <= 0xffffffff) {
      buf[this.len++] = m | 26;
      buf.writeUInt32BE(n, this.len);
      this.len += 4;
    } else {
      buf[this.len++] = m | 27;
      buf.writeUInt32BE(Math.floor(n / 0x100000000), this.len);
      buf.writeUInt32BE(n % 0x100000000, this.len + 4);
      this.len += 8;
    }
  }

  bigHead(major: number, n: bigint): void {
    if (n <= BigInt(Number.MAX_SAFE_INTEGER)) {
      this.head(major, Number(n));
      return;
    }
    this.ensure(9);
    this.buf[this.len++] = (major << 5) | 27;
    this.buf.writeBigUInt64BE(n, this.len);
    this.len += 8;
  }

  string(s: string): void {
    const n = Buffer.byteLength(s);
    this.head(MAJOR_BYTES, n);
    this.ensure(n);
    this.len += this.buf.write(s, this.len, n, 'utf8');
  }

  result(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

// Keys repeat across objects (metadata, name, labels, …): their encoded form is kept, bounded.
const KEY_CACHE_LIMIT = 8192;
const keyCache = new Map<string, Buffer>();

function encodedKey(key: string): Buffer {
  let k = keyCache.get(key);
  if (k === undefined) {
    const w = new Writer(key.length + 9);
    w.string(key);
    k = Buffer.from(w.result());
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    keyCache.set(key, k);
  }
  return k;
}

const byEncodedKey = (a: [Buffer, unknown], b: [Buffer, unknown]) => Buffer.compare(a[0], b[0]);

interface Frame {
  /** Map entries (encoded key, value) or array elements. */
  entries: [Buffer, unknown][] | unknown[];
  isMap: boolean;
  i: number;
}

/** JSON.stringify's view of a value: toJSON applied; undefined when it writes nothing. */
function jsonView(value: unknown, key: string): unknown {
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return (value as { toJSON(k: string): unknown }).toJSON(key);
  }
  return value;
}

const omitted = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function writeNumber(w: Writer, n: number): void {
  if (Number.isNaN(n)) throw new CborEncodeError('cbor: unsupported value: floating-point NaN');
  if (!Number.isFinite(n)) throw new CborEncodeError('cbor: unsupported value: floating-point infinity');
  // JSON cannot tell 1 from 1.0, and upstream reads "1" as an int64: integral values are integers.
  if (Number.isInteger(n) && n >= -TWO_63 && n < TWO_63) {
    if (Number.isSafeInteger(n)) {
      if (n >= 0) w.head(MAJOR_UINT, n);
      else w.head(MAJOR_NINT, -1 - n);
    } else if (n >= 0) w.bigHead(MAJOR_UINT, BigInt(n));
    else w.bigHead(MAJOR_NINT, -1n - BigInt(n));
    return;
  }
  const half = exactHalf(n);
  w.ensure(9);
  const { buf } = w;
  if (half !== undefined) {
    buf[w.len++] = (MAJOR_SIMPLE << 5) | 25;
    buf.writeUInt16BE(half, w.len);
    w.len += 2;
  } else if (fitsSingle(n)) {
    buf[w.len++] = (MAJOR_SIMPLE << 5) | 26;
    buf.writeFloatBE(n, w.len);
    w.len += 4;
  } else {
    buf[w.len++] = (MAJOR_SIMPLE << 5) | 27;
    buf.writeDoubleBE(n, w.len);
    w.len += 8;
  }
}

function writeBigInt(w: Writer, n: bigint): void {
  // Go's int64 and uint64 are integers on the wire; a wider value is a big.Int, which upstream refuses.
  if (n < MIN_INT64 || n > MAX_UINT64) throw new CborEncodeError('cbor: unsupported type: big.Int');
  if (n >= 0n) w.bigHead(MAJOR_UINT, n);
  else w.bigHead(MAJOR_NINT, -1n - n);
}

/** Writes a scalar, or the head of a container and returns its frame. */
function writeValue(w: Writer, value: unknown): Frame | undefined {
  switch (typeof value) {
    case 'string':
      w.string(value);
      return undefined;
    case 'number':
      writeNumber(w, value);
      return undefined;
    case 'boolean':
      w.byte((MAJOR_SIMPLE << 5) | (value ? SIMPLE_TRUE : SIMPLE_FALSE));
      return undefined;
    case 'bigint':
      writeBigInt(w, value);
      return undefined;
    case 'object':
      break;
    default:
      // undefined, functions and symbols only reach here at the top or in arrays: JSON writes null.
      w.byte((MAJOR_SIMPLE << 5) | SIMPLE_NULL);
      return undefined;
  }
  if (value === null) {
    w.byte((MAJOR_SIMPLE << 5) | SIMPLE_NULL);
    return undefined;
  }
  if (Array.isArray(value)) {
    w.head(MAJOR_ARRAY, value.length);
    return { entries: value, isMap: false, i: 0 };
  }
  const entries: [Buffer, unknown][] = [];
  for (const key of Object.keys(value)) {
    const v = jsonView((value as Record<string, unknown>)[key], key);
    if (!omitted(v)) entries.push([encodedKey(key), v]);
  }
  if (entries.length > 1) entries.sort(byEncodedKey);
  w.head(MAJOR_MAP, entries.length);
  return { entries, isMap: true, i: 0 };
}

function writeItem(w: Writer, root: unknown): void {
  const stack: Frame[] = [];
  const first = writeValue(w, jsonView(root, ''));
  if (first !== undefined) stack.push(first);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.i >= top.entries.length) {
      stack.pop();
      continue;
    }
    let child: unknown;
    if (top.isMap) {
      const [key, v] = (top.entries as [Buffer, unknown][])[top.i++];
      w.bytes(key);
      child = v;
    } else {
      const i = top.i++;
      child = jsonView(top.entries[i], String(i));
    }
    const frame = writeValue(w, child);
    if (frame === undefined) continue;
    if (stack.length >= MAX_ENCODE_DEPTH) {
      throw new CborEncodeError(`cbor: value nested deeper than ${MAX_ENCODE_DEPTH} levels (is it cyclic?)`);
    }
    stack.push(frame);
  }
}

/** One CBOR data item, without the self-described tag: for embedding in a larger item. */
export function encodeCborItem(value: unknown): Buffer {
  const w = new Writer(256);
  writeItem(w, value);
  return w.result();
}

/** A CBOR body as upstream writes one: the self-described tag, then the value. */
export function encodeCbor(value: unknown): Buffer {
  const w = new Writer(256);
  w.bytes(SELF_DESCRIBED_PREFIX);
  writeItem(w, value);
  return w.result();
}
