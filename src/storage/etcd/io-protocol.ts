// The messages between the main thread's etcd client and its I/O thread (thread-transport.ts,
// io-thread.ts). Bodies travel as exact-size byte arrays whose memory is transferred, never
// copied again; errors as the fields that rebuild them with their class, which faults.ts sorts by.

import { GrpcError } from './grpc.ts';
import { MemberUnreachableError } from './members.ts';

export type ToIoThread =
  | { op: 'unary'; id: number; path: string; body: Uint8Array }
  | { op: 'watch'; id: number }
  | { op: 'write'; id: number; body: Uint8Array }
  | { op: 'cancel'; id: number }
  | { op: 'close' };

export interface WireError {
  name: string;
  message: string;
  code?: number;
  details?: string;
}

export type FromIoThread =
  | { id: number; ok: Uint8Array }
  | { id: number; msg: Uint8Array }
  | { id: number; end: true }
  | { id: number; err: WireError };

/** The I/O thread's start data. */
export interface IoThreadData {
  endpoints: string[];
}

/** `bytes` in an array of its own, so that posting it transfers exactly those bytes. */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.byteLength);
  out.set(bytes);
  return out;
}

/** A received array as a Buffer over the same memory. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function toWire(err: unknown): WireError {
  if (err instanceof GrpcError)
    return { name: err.name, message: err.message, code: err.code, details: err.details };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

const UNREACHABLE = /^etcd member (.*) is unreachable$/;

export function fromWire(w: WireError): Error {
  if (w.name === 'GrpcError' && w.code !== undefined) return new GrpcError(w.code, w.details ?? '');
  const m = UNREACHABLE.exec(w.message);
  if (w.name === 'MemberUnreachableError' && m !== null) return new MemberUnreachableError(m[1]);
  const err = new Error(w.message);
  err.name = w.name;
  return err;
}
