// The protobuf body envelope: the magic 0x6b 0x38 0x73 0x00, then runtime.Unknown {typeMeta
// {apiVersion=1, kind=2} = 1, raw = 2, contentEncoding = 3, contentType = 4}. Upstream writes every
// field but raw even when empty, so an ordinary body ends in 1a 00 22 00.

import { ProtobufError } from './errors.ts';
import { Reader, WIRE_BYTES, Writer } from './wire.ts';

export const PROTOBUF_MAGIC: Readonly<Uint8Array> = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface Envelope {
  apiVersion: string;
  kind: string;
  /** The object's message, in the encoding contentType names (empty: protobuf). */
  raw: Uint8Array;
  /** Empty means none. */
  contentEncoding: string;
  /** Empty means protobuf. */
  contentType: string;
}

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

export function hasProtobufMagic(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === PROTOBUF_MAGIC[0] &&
    bytes[1] === PROTOBUF_MAGIC[1] &&
    bytes[2] === PROTOBUF_MAGIC[2] &&
    bytes[3] === PROTOBUF_MAGIC[3]
  );
}

/** Writes the magic, the Unknown's typeMeta, and the tag of its raw field (whose length comes next). */
export function writeEnvelopeHeader(w: Writer, type: TypeMeta): void {
  w.raw(PROTOBUF_MAGIC);
  w.tag(1, WIRE_BYTES);
  const start = w.begin();
  w.tag(1, WIRE_BYTES);
  w.string(type.apiVersion);
  w.tag(2, WIRE_BYTES);
  w.string(type.kind);
  w.finish(start);
  w.tag(2, WIRE_BYTES);
}

/** Writes the magic and the Unknown header with `raw` into `w` (the caller's writer, for reuse). */
export function writeEnvelope(
  w: Writer,
  type: TypeMeta,
  raw: Uint8Array,
  contentEncoding = '',
  contentType = '',
): void {
  writeEnvelopeHeader(w, type);
  w.bytes(raw);
  w.tag(3, WIRE_BYTES);
  w.string(contentEncoding);
  w.tag(4, WIRE_BYTES);
  w.string(contentType);
}

export function encodeEnvelope(env: Partial<Envelope> & TypeMeta & { raw: Uint8Array }): Buffer {
  const w = new Writer(env.raw.length + 64);
  writeEnvelope(w, env, env.raw, env.contentEncoding, env.contentType);
  return w.finishBuffer();
}

/**
 * The bytes before `raw` in an envelope whose raw is `rawLength` bytes long: a list can be written as
 * this header followed by its message in pieces (`writeEnvelope` would need the whole raw at once).
 */
export function envelopeHead(type: TypeMeta, rawLength: number): Buffer {
  const w = new Writer(64);
  writeEnvelopeHeader(w, type);
  w.uvarint(rawLength);
  return w.finishBuffer();
}

/** What follows `raw` in an envelope without content encoding or type: contentEncoding and contentType, empty. */
export const ENVELOPE_TAIL: Readonly<Uint8Array> = Uint8Array.of(0x1a, 0x00, 0x22, 0x00);

function readTypeMeta(r: Reader): TypeMeta {
  const out = { apiVersion: '', kind: '' };
  while (!r.done) {
    const [k, wt] = r.tag();
    if ((k === 1 || k === 2) && wt !== WIRE_BYTES) throw new ProtobufError('wrong wire type in TypeMeta');
    if (k === 1) out.apiVersion = r.string();
    else if (k === 2) out.kind = r.string();
    else r.skip(wt);
  }
  return out;
}

/** Reads an envelope; the raw bytes are a view into `bytes`. */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  if (!hasProtobufMagic(bytes)) {
    throw new ProtobufError(
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    );
  }
  const r = new Reader(bytes, 4);
  const env: Envelope = {
    apiVersion: '',
    kind: '',
    raw: new Uint8Array(0),
    contentEncoding: '',
    contentType: '',
  };
  while (!r.done) {
    const [k, wt] = r.tag();
    if (k >= 1 && k <= 4 && wt !== WIRE_BYTES)
      throw new ProtobufError(`wrong wire type for Unknown field ${k}`);
    if (k === 1) {
      const n = r.length();
      Object.assign(env, readTypeMeta(new Reader(bytes, r.pos, r.pos + n)));
      r.pos += n;
    } else if (k === 2) env.raw = r.bytes();
    else if (k === 3) env.contentEncoding = r.string();
    else if (k === 4) env.contentType = r.string();
    else r.skip(wt);
  }
  return env;
}
