// The etcd v3 messages this backend sends and reads (etcdserverpb's rpc.proto, mvccpb's kv.proto;
// field numbers as there), encoded and decoded by hand on wire.ts. Requests are written straight
// into their gRPC frame (5-byte prefix, then the message); keys and values in answers are views
// into the received bytes. Fields this backend never reads (cluster and member ids, leases) are
// skipped.

import { bytesFieldSize, delimitedSize, Reader, varintFieldSize, varintSize, Writer } from './wire.ts';

export interface ResponseHeader {
  revision: number;
  raftTerm: number;
}

export interface KeyValue {
  key: Buffer;
  createRevision: number;
  modRevision: number;
  version: number;
  value: Buffer;
}

export interface RangeRequest {
  key: Uint8Array;
  rangeEnd?: Uint8Array;
  limit?: number;
  revision?: number;
  countOnly?: boolean;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: KeyValue[];
  more: boolean;
  count: number;
}

export interface PutRequest {
  key: Uint8Array;
  value: Uint8Array;
}

export interface DeleteRangeRequest {
  key: Uint8Array;
  rangeEnd?: Uint8Array;
}

export type RequestOp = { range: RangeRequest } | { put: PutRequest } | { deleteRange: DeleteRangeRequest };

const RESULTS = { equal: 0, greater: 1, less: 2, notEqual: 3 } as const;

/** A compare of a transaction; the target's value is named by the target. */
export type Compare = { key: Uint8Array; result: keyof typeof RESULTS } & (
  | { target: 'version'; version: number }
  | { target: 'create'; createRevision: number }
  | { target: 'mod'; modRevision: number }
  | { target: 'value'; value: Uint8Array }
);

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

/** Of a transaction's answers, what this backend reads: the range results. */
export interface ResponseOp {
  range?: RangeResponse;
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

export interface WatchCreateRequest {
  key: Uint8Array;
  rangeEnd?: Uint8Array;
  startRevision: number;
  progressNotify?: boolean;
  prevKv?: boolean;
}

export interface WatchEventMessage {
  type: 'put' | 'delete';
  kv: KeyValue;
  prevKv?: KeyValue;
}

export interface WatchResponse {
  header: ResponseHeader;
  watchId: number;
  created: boolean;
  canceled: boolean;
  compactRevision: number;
  cancelReason: string;
  events: WatchEventMessage[];
}

// ---- requests -------------------------------------------------------------------------------

/** A request framed for gRPC: uncompressed flag, 4-byte big-endian length, the message. */
function frame(size: number, write: (w: Writer) => void): Buffer {
  const buf = Buffer.allocUnsafe(5 + size);
  buf[0] = 0;
  buf.writeUInt32BE(size, 1);
  const w = new Writer(buf, 5);
  write(w);
  if (w.pos !== buf.length) throw new Error(`etcd message size mismatch: ${w.pos - 5} != ${size}`);
  return buf;
}

const boolSize = (field: number, b: boolean | undefined) => (b === true ? varintFieldSize(field, 1) : 0);

function rangeSize(r: RangeRequest): number {
  return (
    bytesFieldSize(1, r.key) +
    bytesFieldSize(2, r.rangeEnd) +
    varintFieldSize(3, r.limit ?? 0) +
    varintFieldSize(4, r.revision ?? 0) +
    boolSize(9, r.countOnly)
  );
}

function writeRange(w: Writer, r: RangeRequest): void {
  w.bytes(1, r.key);
  w.bytes(2, r.rangeEnd);
  w.uint(3, r.limit ?? 0);
  w.uint(4, r.revision ?? 0);
  w.bool(9, r.countOnly);
}

const putSize = (p: PutRequest) => bytesFieldSize(1, p.key) + bytesFieldSize(2, p.value);
const deleteSize = (d: DeleteRangeRequest) => bytesFieldSize(1, d.key) + bytesFieldSize(2, d.rangeEnd);

/** The op's field number in RequestOp and its body's size. */
function opBody(op: RequestOp): [number, number] {
  if ('range' in op) return [1, rangeSize(op.range)];
  if ('put' in op) return [2, putSize(op.put)];
  return [3, deleteSize(op.deleteRange)];
}

function opSize(op: RequestOp): number {
  const [field, len] = opBody(op);
  return delimitedSize(field, len);
}

function writeOp(w: Writer, op: RequestOp): void {
  const [field, len] = opBody(op);
  w.nested(field, len);
  if ('range' in op) writeRange(w, op.range);
  else if ('put' in op) {
    w.bytes(1, op.put.key);
    w.bytes(2, op.put.value);
  } else {
    w.bytes(1, op.deleteRange.key);
    w.bytes(2, op.deleteRange.rangeEnd);
  }
}

const TARGETS = { version: [0, 4], create: [1, 5], mod: [2, 6], value: [3, 7] } as const;

function compareSize(c: Compare): number {
  const [target, field] = TARGETS[c.target];
  let size = varintFieldSize(1, RESULTS[c.result]) + varintFieldSize(2, target) + bytesFieldSize(3, c.key);
  // The target's value is one of a oneof: written even when 0 or empty.
  if (c.target === 'value') size += delimitedSize(field, c.value.length);
  else {
    const n = c.target === 'version' ? c.version : c.target === 'create' ? c.createRevision : c.modRevision;
    size += varintSize(field << 3) + varintSize(n);
  }
  return size;
}

function writeCompare(w: Writer, c: Compare): void {
  const [target, field] = TARGETS[c.target];
  w.uint(1, RESULTS[c.result]);
  w.uint(2, target);
  w.bytes(3, c.key);
  if (c.target === 'value') {
    w.nested(field, c.value.length);
    w.buf.set(c.value, w.pos);
    w.pos += c.value.length;
  } else {
    w.varint(field << 3);
    w.varint(c.target === 'version' ? c.version : c.target === 'create' ? c.createRevision : c.modRevision);
  }
}

export function encodeRange(r: RangeRequest): Buffer {
  return frame(rangeSize(r), (w) => writeRange(w, r));
}

export function encodePut(p: PutRequest): Buffer {
  return frame(putSize(p), (w) => {
    w.bytes(1, p.key);
    w.bytes(2, p.value);
  });
}

export function encodeTxn(t: TxnRequest): Buffer {
  const compares = t.compare.map(compareSize);
  const success = t.success.map(opSize);
  const failure = t.failure.map(opSize);
  let size = 0;
  for (const n of compares) size += delimitedSize(1, n);
  for (const n of success) size += delimitedSize(2, n);
  for (const n of failure) size += delimitedSize(3, n);
  return frame(size, (w) => {
    t.compare.forEach((c, i) => {
      w.nested(1, compares[i]);
      writeCompare(w, c);
    });
    t.success.forEach((op, i) => {
      w.nested(2, success[i]);
      writeOp(w, op);
    });
    t.failure.forEach((op, i) => {
      w.nested(3, failure[i]);
      writeOp(w, op);
    });
  });
}

export function encodeCompact(revision: number, physical: boolean): Buffer {
  return frame(varintFieldSize(1, revision) + boolSize(2, physical), (w) => {
    w.uint(1, revision);
    w.bool(2, physical);
  });
}

/** StatusRequest has no fields. */
export const STATUS_REQUEST: Buffer = frame(0, () => {});

export function encodeWatchCreate(c: WatchCreateRequest): Buffer {
  const inner =
    bytesFieldSize(1, c.key) +
    bytesFieldSize(2, c.rangeEnd) +
    varintFieldSize(3, c.startRevision) +
    boolSize(4, c.progressNotify) +
    boolSize(6, c.prevKv);
  return frame(delimitedSize(1, inner), (w) => {
    w.nested(1, inner);
    w.bytes(1, c.key);
    w.bytes(2, c.rangeEnd);
    w.uint(3, c.startRevision);
    w.bool(4, c.progressNotify);
    w.bool(6, c.prevKv);
  });
}

// ---- answers --------------------------------------------------------------------------------

function readHeader(r: Reader): ResponseHeader {
  const [start, end] = r.delimited();
  const h = new Reader(r.buf, start, end);
  const out: ResponseHeader = { revision: 0, raftTerm: 0 };
  for (let f = h.next(); f !== 0; f = h.next()) {
    if (f === 3) out.revision = h.varint();
    else if (f === 4) out.raftTerm = h.varint();
    else h.skip();
  }
  return out;
}

const EMPTY = Buffer.alloc(0);

function readKv(r: Reader): KeyValue {
  const [start, end] = r.delimited();
  const k = new Reader(r.buf, start, end);
  const kv: KeyValue = { key: EMPTY, createRevision: 0, modRevision: 0, version: 0, value: EMPTY };
  for (let f = k.next(); f !== 0; f = k.next()) {
    switch (f) {
      case 1:
        kv.key = k.bytes();
        break;
      case 2:
        kv.createRevision = k.varint();
        break;
      case 3:
        kv.modRevision = k.varint();
        break;
      case 4:
        kv.version = k.varint();
        break;
      case 5:
        kv.value = k.bytes();
        break;
      default:
        k.skip();
    }
  }
  return kv;
}

const NO_HEADER: ResponseHeader = Object.freeze({ revision: 0, raftTerm: 0 });

function readRangeResponse(r: Reader): RangeResponse {
  const out: RangeResponse = { header: NO_HEADER, kvs: [], more: false, count: 0 };
  for (let f = r.next(); f !== 0; f = r.next()) {
    if (f === 1) out.header = readHeader(r);
    else if (f === 2) out.kvs.push(readKv(r));
    else if (f === 3) out.more = r.bool();
    else if (f === 4) out.count = r.varint();
    else r.skip();
  }
  return out;
}

export function decodeRangeResponse(buf: Buffer): RangeResponse {
  return readRangeResponse(new Reader(buf));
}

/** An answer of which only the header is read (Put, DeleteRange, Compact, Status's header). */
export function decodeHeaderOnly(buf: Buffer): { header: ResponseHeader } {
  const r = new Reader(buf);
  let header = NO_HEADER;
  for (let f = r.next(); f !== 0; f = r.next()) {
    if (f === 1) header = readHeader(r);
    else r.skip();
  }
  return { header };
}

/** StatusResponse's raft term (its field 6; the header's term is the same member's). */
export function decodeStatusTerm(buf: Buffer): number {
  const r = new Reader(buf);
  let term = 0;
  for (let f = r.next(); f !== 0; f = r.next()) {
    if (f === 6) term = r.varint();
    else if (f === 1 && term === 0) term = readHeader(r).raftTerm;
    else r.skip();
  }
  return term;
}

/** StatusResponse's dbSize (its field 3): bytes the member's backend database takes. */
export function decodeStatusDbSize(buf: Buffer): number {
  const r = new Reader(buf);
  let size = 0;
  for (let f = r.next(); f !== 0; f = r.next()) {
    if (f === 3) size = r.varint();
    else r.skip();
  }
  return size;
}

export function decodeTxnResponse(buf: Buffer): TxnResponse {
  const r = new Reader(buf);
  const out: TxnResponse = { header: NO_HEADER, succeeded: false, responses: [] };
  for (let f = r.next(); f !== 0; f = r.next()) {
    if (f === 1) out.header = readHeader(r);
    else if (f === 2) out.succeeded = r.bool();
    else if (f === 3) {
      const [start, end] = r.delimited();
      const op = new Reader(buf, start, end);
      const res: ResponseOp = {};
      for (let g = op.next(); g !== 0; g = op.next()) {
        if (g === 1) {
          const [s, e] = op.delimited();
          res.range = readRangeResponse(new Reader(buf, s, e));
        } else op.skip();
      }
      out.responses.push(res);
    } else r.skip();
  }
  return out;
}

export function decodeWatchResponse(buf: Buffer): WatchResponse {
  const r = new Reader(buf);
  const out: WatchResponse = {
    header: NO_HEADER,
    watchId: 0,
    created: false,
    canceled: false,
    compactRevision: 0,
    cancelReason: '',
    events: [],
  };
  for (let f = r.next(); f !== 0; f = r.next()) {
    switch (f) {
      case 1:
        out.header = readHeader(r);
        break;
      case 2:
        out.watchId = r.varint();
        break;
      case 3:
        out.created = r.bool();
        break;
      case 4:
        out.canceled = r.bool();
        break;
      case 5:
        out.compactRevision = r.varint();
        break;
      case 6:
        out.cancelReason = r.string();
        break;
      case 11: {
        const [start, end] = r.delimited();
        const e = new Reader(buf, start, end);
        const ev: WatchEventMessage = { type: 'put', kv: EMPTY_KV };
        for (let g = e.next(); g !== 0; g = e.next()) {
          if (g === 1) ev.type = e.varint() === 1 ? 'delete' : 'put';
          else if (g === 2) ev.kv = readKv(e);
          else if (g === 3) ev.prevKv = readKv(e);
          else e.skip();
        }
        out.events.push(ev);
        break;
      }
      default:
        r.skip();
    }
  }
  return out;
}

const EMPTY_KV: KeyValue = Object.freeze({
  key: EMPTY,
  createRevision: 0,
  modRevision: 0,
  version: 0,
  value: EMPTY,
}) as KeyValue;
