// Protobuf watch streams as upstream writes them: each event is a bare meta/v1 WatchEvent message
// (no magic, no envelope: upstream's stream serializer is the raw one) whose object is a
// RawExtension holding the object's full enveloped body, framed by a 4-byte big-endian length.
// Each event's object bytes come from encodeProtobuf, so a watch cache can encode an object once
// per media type and share the bytes between watchers.

import type { ApiObject } from '../../machinery/object.ts';
import { ProtobufError } from './errors.ts';
import { decodeProtobuf, type SchemaLookup } from './objects.ts';
import { Reader, WIRE_BYTES, Writer } from './wire.ts';

/** Larger frames are refused by the reader (upstream's client buffers are bounded too). */
const DEFAULT_MAX_FRAME = 64 * 1024 * 1024;

function writeEvent(w: Writer, type: string, objectBody: Uint8Array): void {
  w.tag(1, WIRE_BYTES);
  w.string(type);
  w.tag(2, WIRE_BYTES);
  const start = w.begin();
  w.tag(1, WIRE_BYTES);
  w.bytes(objectBody);
  w.finish(start);
}

/** A WatchEvent message: `type` (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) and the object's body. */
export function encodeWatchEvent(type: string, objectBody: Uint8Array): Buffer {
  const w = new Writer(objectBody.length + type.length + 16);
  writeEvent(w, type, objectBody);
  return w.finishBuffer();
}

/** One frame: the message's length as 4 big-endian bytes, then the message. */
export function encodeFrame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(4 + message.length);
  out.writeUInt32BE(message.length, 0);
  out.set(message, 4);
  return out;
}

/** A framed WatchEvent, ready to write to the response stream. */
export function encodeWatchFrame(type: string, objectBody: Uint8Array): Buffer {
  const w = new Writer(objectBody.length + type.length + 20);
  w.raw(Uint8Array.of(0, 0, 0, 0));
  writeEvent(w, type, objectBody);
  const out = w.finishBuffer();
  out.writeUInt32BE(out.length - 4, 0);
  return out;
}

export interface RawWatchEvent {
  type: string;
  /** The object's enveloped body (decode it with decodeProtobuf). */
  object: Uint8Array;
}

/** A WatchEvent message's type and raw object bytes. */
export function decodeWatchEvent(message: Uint8Array): RawWatchEvent {
  const r = new Reader(message);
  const out: RawWatchEvent = { type: '', object: new Uint8Array(0) };
  while (!r.done) {
    const [k, wt] = r.tag();
    if ((k === 1 || k === 2) && wt !== WIRE_BYTES)
      throw new ProtobufError(`wrong wire type for WatchEvent field ${k}`);
    if (k === 1) out.type = r.string();
    else if (k === 2) {
      const n = r.length();
      const ext = new Reader(message, r.pos, r.pos + n);
      r.pos += n;
      while (!ext.done) {
        const [ek, ewt] = ext.tag();
        if (ek === 1 && ewt === WIRE_BYTES) out.object = ext.bytes();
        else if (ek === 1) throw new ProtobufError('wrong wire type for RawExtension raw');
        else ext.skip(ewt);
      }
    } else r.skip(wt);
  }
  return out;
}

/** Splits a byte stream into frames as chunks arrive; for tests and in-process clients. */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly maxFrame = DEFAULT_MAX_FRAME) {}

  /** Adds a chunk and returns every frame now complete. */
  push(chunk: Uint8Array): Buffer[] {
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    while (this.pending.length >= 4) {
      const n = this.pending.readUInt32BE(0);
      if (n > this.maxFrame) throw new ProtobufError(`watch frame of ${n} bytes exceeds ${this.maxFrame}`);
      if (this.pending.length < 4 + n) break;
      frames.push(this.pending.subarray(4, 4 + n));
      this.pending = this.pending.subarray(4 + n);
    }
    return frames;
  }

  /** Bytes of an unfinished frame; non-zero when a stream ends mid-frame. */
  get buffered(): number {
    return this.pending.length;
  }
}

/** Every event of a complete framed stream, objects decoded; a stream cut mid-frame is an error. */
export function decodeWatchStream(
  lookup: SchemaLookup,
  stream: Uint8Array,
): { type: string; object: ApiObject }[] {
  const reader = new FrameReader();
  const frames = reader.push(stream);
  if (reader.buffered > 0) throw new ProtobufError('watch stream ends inside a frame');
  return frames.map((f) => {
    const ev = decodeWatchEvent(f);
    return { type: ev.type, object: decodeProtobuf(lookup, ev.object) };
  });
}
