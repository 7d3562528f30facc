// The main thread's end of the etcd I/O thread (io-thread.ts): calls go there as framed bytes and
// their answers come back as bytes, so the main thread keeps only the encoding and decoding of
// etcd's messages and leaves HTTP/2, gRPC framing and their events to the other core. A thread
// that fails or exits fails what it owed as a lost connection (UNAVAILABLE, so reads are retried
// and writes judged as after any lost connection), and the next call starts a new one.

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { GrpcError, type StreamCall, type StreamHandlers } from './grpc.ts';
import {
  asBuffer,
  type FromIoThread,
  fromWire,
  type IoThreadData,
  ownBytes,
  type ToIoThread,
} from './io-protocol.ts';
import type { Transport } from './members.ts';

/**
 * The thread's entry: beside this module under tsx and in tsc's output; in a bundle
 * (scripts/bundle.mjs) its own entry, outdir/etcd-io-thread.js, while this code sits in a chunk.
 */
function findEntry(): URL | null {
  const here = import.meta.url;
  const ext = /\.[cm]?ts$/.test(new URL(here).pathname) ? '.ts' : '.js';
  const candidates = [`./io-thread${ext}`, `../etcd-io-thread${ext}`].map((rel) => new URL(rel, here));
  return candidates.find((url) => existsSync(url)) ?? null;
}

/**
 * The module a thread starts from. tsx does not register itself in worker threads on Node 20, so a
 * .ts entry is imported through its ESM hooks (as codec/yaml-offload.ts does for its worker).
 */
function bootstrap(entry: URL): URL {
  if (!entry.pathname.endsWith('.ts')) return entry;
  let tsx: string | null = null;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    return entry;
  }
  const source = [
    `const entry = ${JSON.stringify(entry.href)};`,
    'try {',
    '  await import(entry);',
    '} catch (err) {',
    "  if (err?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;",
    `  const { register } = await import(${JSON.stringify(tsx)});`,
    '  register();',
    "  await import(entry + '?tsx');",
    '}',
  ].join('\n');
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

let entry: URL | null | undefined;

/** A transport on an I/O thread, or undefined when the thread's entry is not there. */
export function threadTransport(endpoints: string[]): Transport | undefined {
  entry ??= findEntry();
  if (entry === null) {
    process.emitWarning('etcd I/O runs on the main thread: the I/O thread entry is missing');
    return undefined;
  }
  return new ThreadTransport(endpoints, entry);
}

interface Pending {
  resolve(answer: Buffer): void;
  reject(err: Error): void;
}

class ThreadTransport implements Transport {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly streams = new Map<number, StreamHandlers>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly endpoints: string[],
    private readonly entry: URL,
  ) {}

  private thread(): Worker {
    if (this.closed) throw new GrpcError(1, 'client closed');
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(bootstrap(this.entry), {
      workerData: { endpoints: this.endpoints } satisfies IoThreadData,
    });
    this.worker = worker;
    worker.unref();
    worker.on('message', (m: FromIoThread) => this.receive(m));
    const lost = (why: string) => this.lost(worker, why);
    worker.on('error', (err) => lost(err.message));
    worker.on('messageerror', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`exited with code ${code}`));
    return worker;
  }

  /** The thread keeps the process alive only while it owes answers. */
  private hold(): void {
    if (this.pending.size + this.streams.size === 1) this.worker?.ref();
  }

  private release(): void {
    if (this.pending.size + this.streams.size === 0) this.worker?.unref();
  }

  private send(m: ToIoThread, body?: Uint8Array): void {
    this.thread().postMessage(m, body === undefined ? [] : [body.buffer as ArrayBuffer]);
  }

  private receive(m: FromIoThread): void {
    const p = this.pending.get(m.id);
    if (p !== undefined) {
      this.pending.delete(m.id);
      this.release();
      if ('ok' in m) p.resolve(asBuffer(m.ok));
      else if ('err' in m) p.reject(fromWire(m.err));
      return;
    }
    const s = this.streams.get(m.id);
    if (s === undefined) return;
    if ('msg' in m) {
      s.message(asBuffer(m.msg));
      return;
    }
    this.streams.delete(m.id);
    this.release();
    if ('end' in m) s.end();
    else if ('err' in m) {
      const err = fromWire(m.err);
      s.error(err instanceof GrpcError ? err : new GrpcError(2, err.message));
    }
  }

  /** The thread is gone: what it owed fails as a lost connection. */
  private lost(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const err = new GrpcError(14, `Connection dropped: etcd I/O thread ended (${why})`);
    const pending = [...this.pending.values()];
    const streams = [...this.streams.values()];
    this.pending.clear();
    this.streams.clear();
    for (const p of pending) p.reject(err);
    for (const s of streams) s.error(err);
  }

  unary(path: string, framed: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const body = ownBytes(framed);
      try {
        this.send({ op: 'unary', id, path, body }, body);
      } catch (err) {
        reject(err);
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.hold();
    });
  }

  watch(handlers: StreamHandlers): StreamCall {
    const id = this.nextId++;
    this.send({ op: 'watch', id });
    this.streams.set(id, handlers);
    this.hold();
    return {
      write: (framed) => {
        if (!this.streams.has(id)) return;
        const body = ownBytes(framed);
        this.send({ op: 'write', id, body }, body);
      },
      cancel: () => {
        if (!this.streams.delete(id)) return;
        this.release();
        if (this.worker !== undefined) this.send({ op: 'cancel', id });
      },
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // Calls under way are still answered; the thread then ends by itself.
    this.worker?.postMessage({ op: 'close' } satisfies ToIoThread);
  }
}
