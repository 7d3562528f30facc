// The few ASN.1 DER encodings an X.509 certificate needs. Written by hand because the general X.509
// library costs about 150 ms to import, which alone would blow the cold-start budget of a fresh
// data directory; a certificate is a handful of nested tag-length-value records.

/** One encoded element: tag byte, minimal length, contents. */
export function tlv(tag: number, content: Uint8Array): Buffer {
  const n = content.length;
  let header: number[];
  if (n < 0x80) header = [tag, n];
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    header = [tag, 0x80 | bytes.length, ...bytes];
  }
  return Buffer.concat([Buffer.from(header), content]);
}

export const sequence = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Uint8Array[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (bytes: Uint8Array): Buffer => tlv(0x04, bytes);
export const utf8String = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
export const boolean = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
/** A context-specific constructed wrapper, `[n] EXPLICIT`. */
export const explicit = (n: number, inner: Uint8Array): Buffer => tlv(0xa0 | n, inner);
/** A context-specific primitive value, `[n] IMPLICIT` of a primitive type. */
export const implicit = (n: number, bytes: Uint8Array): Buffer => tlv(0x80 | n, bytes);

/** A non-negative INTEGER from big-endian magnitude bytes. */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  // A set top bit would read as negative: DER wants a leading zero then.
  return tlv(0x02, trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export const smallInteger = (v: number): Buffer => unsignedInteger(Buffer.from([v]));

/** A BIT STRING of whole bytes (keys, signatures). */
export const bitString = (bytes: Uint8Array): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));

/**
 * A named-bit BIT STRING (key usage) from bit numbers, bit 0 being the most significant bit of the
 * first byte; DER drops trailing zero bits and says how many went unused.
 */
export function namedBits(bits: number[]): Buffer {
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const b of bits) bytes[b >> 3] |= 0x80 >> (b & 7);
  const unused = 7 - (highest & 7);
  return tlv(0x03, Buffer.concat([Buffer.from([unused]), bytes]));
}

export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const out = [arcs[0] * 40 + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const groups: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) groups.unshift(0x80 | (v & 0x7f));
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

/** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050, always in UTC to the second. */
export function time(d: Date): Buffer {
  const iso = d.toISOString(); // 2026-11-22T10:00:00.000Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '');
  const year = d.getUTCFullYear();
  return year < 2050
    ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${digits}Z`, 'ascii'));
}

/** Where one element sits: its tag, the offset of its contents, and the offset just past it. */
interface Element {
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

function readElement(der: Uint8Array, at: number): Element {
  if (at + 2 > der.length) throw new Error('truncated DER element');
  const tag = der[at];
  let length = der[at + 1];
  let contentStart = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Error('unsupported DER length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[contentStart + i];
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > der.length) throw new Error('truncated DER element');
  return { tag, start: at, contentStart, end };
}

/** The complete encodings of a constructed element's children, in order. */
export function children(der: Uint8Array): Buffer[] {
  const outer = readElement(der, 0);
  const out: Buffer[] = [];
  for (let at = outer.contentStart; at < outer.end; ) {
    const e = readElement(der, at);
    out.push(Buffer.from(der.subarray(e.start, e.end)));
    at = e.end;
  }
  return out;
}

/** A primitive element's contents (the bytes after tag and length). */
export function contents(der: Uint8Array): Buffer {
  const e = readElement(der, 0);
  return Buffer.from(der.subarray(e.contentStart, e.end));
}
