// The etcd I/O thread: owns the cluster's connections (members.ts) and carries the main thread's
// framed calls over them (thread-transport.ts is the other end). HTTP/2 sessions and streams,
// gRPC framing and their events run here; encoding and decoding of etcd's messages stay with the
// caller, so what crosses is only bytes.

import { parentPort, workerData } from 'node:worker_threads';
import type { StreamCall } from './grpc.ts';
import {
  asBuffer,
  type FromIoThread,
  type IoThreadData,
  ownBytes,
  type ToIoThread,
  toWire,
} from './io-protocol.ts';
import { Members } from './members.ts';

const port = parentPort;
if (port === null) throw new Error('io-thread.ts runs as a worker thread');
const members = new Members((workerData as IoThreadData).endpoints);
const streams = new Map<number, StreamCall>();

function post(m: FromIoThread, bytes?: Uint8Array): void {
  port?.postMessage(m, bytes === undefined ? [] : [bytes.buffer as ArrayBuffer]);
}

port.on('message', (m: ToIoThread) => {
  switch (m.op) {
    case 'unary':
      members.unary(m.path, asBuffer(m.body)).then(
        (answer) => {
          const bytes = ownBytes(answer);
          post({ id: m.id, ok: bytes }, bytes);
        },
        (err: unknown) => post({ id: m.id, err: toWire(err) }),
      );
      return;
    case 'watch':
      try {
        streams.set(
          m.id,
          members.watch({
            message: (msg) => {
              const bytes = ownBytes(msg);
              post({ id: m.id, msg: bytes }, bytes);
            },
            end: () => {
              streams.delete(m.id);
              post({ id: m.id, end: true });
            },
            error: (err) => {
              streams.delete(m.id);
              post({ id: m.id, err: toWire(err) });
            },
          }),
        );
      } catch (err) {
        post({ id: m.id, err: toWire(err) });
      }
      return;
    case 'write':
      streams.get(m.id)?.write(asBuffer(m.body));
      return;
    case 'cancel':
      streams.get(m.id)?.cancel();
      streams.delete(m.id);
      return;
    case 'close':
      // Calls under way still finish and answer (members.ts); the thread ends when its
      // connections do.
      members.close();
      port.unref();
      return;
  }
});
