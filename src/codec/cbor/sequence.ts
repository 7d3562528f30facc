// CBOR sequences (RFC 8742), the body of application/cbor-seq watch responses. Upstream's framer adds
// nothing between items: each event is one whole data item. Each event is a body of its own
// (self-described tag first), and its object is an embedded body with its own tag, since upstream
// encodes the object first and carries those bytes verbatim inside the event.

import { encodeCbor } from './encode.ts';
import { CborDecodeError } from './errors.ts';
import { MAJOR_BYTES, MAJOR_MAP, SELF_DESCRIBED_PREFIX } from './head.ts';
import { scanWellFormed } from './wellformed.ts';

/** One item of a sequence: the same bytes as a body. */
export const encodeCborSeqItem = encodeCbor;

// The fixed parts of a watch event: a map of two entries, keys sorted as upstream sorts them.
const EVENT_HEAD = Buffer.concat([SELF_DESCRIBED_PREFIX, Buffer.of((MAJOR_MAP << 5) | 2)]);
const TYPE_KEY = Buffer.concat([Buffer.of((MAJOR_BYTES << 5) | 4), Buffer.from('type')]);
const OBJECT_KEY = Buffer.concat([Buffer.of((MAJOR_BYTES << 5) | 6), Buffer.from('object')]);

const hasPrefix = (b: Uint8Array) =>
  b.length >= 3 &&
  b[0] === SELF_DESCRIBED_PREFIX[0] &&
  b[1] === SELF_DESCRIBED_PREFIX[1] &&
  b[2] === SELF_DESCRIBED_PREFIX[2];

/**
 * A watch event from an object already encoded with encodeCbor: the cacher encodes each object once
 * per media type and every watcher shares those bytes. Bytes without the self-described tag get it,
 * as upstream's RawExtension adds it when it reads CBOR.
 */
export function encodeCborWatchEventFromBody(type: string, objectBody: Uint8Array): Buffer {
  const typeValue = encodeCbor(type).subarray(SELF_DESCRIBED_PREFIX.length);
  const parts = [EVENT_HEAD, TYPE_KEY, typeValue, OBJECT_KEY];
  if (!hasPrefix(objectBody)) parts.push(Buffer.from(SELF_DESCRIBED_PREFIX));
  parts.push(Buffer.from(objectBody.buffer, objectBody.byteOffset, objectBody.byteLength));
  return Buffer.concat(parts);
}

/** A watch event `{type, object}` as one item of a cbor-seq body. */
export function encodeCborWatchEvent(type: string, object: unknown): Buffer {
  return encodeCborWatchEventFromBody(type, encodeCbor(object));
}

/** Splits a whole sequence into its items; a malformed or cut item throws CborDecodeError. */
export function splitCborSequence(bytes: Uint8Array): Buffer[] {
  const items: Buffer[] = [];
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  while (pos < buf.length) {
    const end = scanWellFormed(buf, pos, true);
    items.push(buf.subarray(pos, end));
    pos = end;
  }
  return items;
}

/** Splits a sequence arriving in chunks (a watch stream): whole items out, the rest kept for later. */
export class CborSequenceReader {
  private pending: Buffer = Buffer.alloc(0);

  /** Adds bytes; returns the items they complete. */
  push(chunk: Uint8Array): Buffer[] {
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    const items: Buffer[] = [];
    let pos = 0;
    while (pos < this.pending.length) {
      let end: number;
      try {
        end = scanWellFormed(this.pending, pos, true);
      } catch (err) {
        if (err instanceof CborDecodeError && err.kind === 'truncated') break;
        throw err;
      }
      items.push(this.pending.subarray(pos, end));
      pos = end;
    }
    this.pending = this.pending.subarray(pos);
    return items;
  }

  /** The stream ended: bytes of an unfinished item are an error. */
  end(): void {
    if (this.pending.length > 0) throw new CborDecodeError('unexpected EOF', 'truncated', 'wellformed');
  }
}
