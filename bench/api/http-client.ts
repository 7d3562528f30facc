// The load generator's HTTP client: HTTP/1.1 over a keep-alive agent, or HTTP/2 over one session,
// with the endpoint's credentials. Requests answer status, body and byte count; streams (watches)
// deliver lines as they arrive.

import { type ClientHttp2Session, connect } from 'node:http2';
import { Agent, request } from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import type { Endpoint } from './target.ts';

export type Protocol = 'http1' | 'http2';

export interface Reply {
  status: number;
  body: string;
  bytes: number;
}

export interface ApiClient {
  request(method: string, path: string, body?: string, contentType?: string): Promise<Reply>;
  /**
   * Opens a streaming GET asking for `accept` (the server's default when absent); `onChunk` gets
   * the body's bytes as they arrive; resolves when the stream ends.
   */
  stream(path: string, onChunk: (chunk: Buffer) => void, signal: AbortSignal, accept?: string): Promise<void>;
  close(): void;
}

/** Feeds chunks in, hands whole lines (without the newline) out. */
export function lineSplitter(onLine: (line: string) => void): (chunk: Buffer) => void {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  return (chunk) => {
    pending += decoder.write(chunk);
    let nl = pending.indexOf('\n');
    while (nl !== -1) {
      onLine(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf('\n');
    }
  };
}

/** Feeds chunks in, hands whole length-prefixed frames (4-byte big-endian length) out. */
export function frameSplitter(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const end = 4 + pending.readUInt32BE(0);
      if (pending.length < end) break;
      onFrame(pending.subarray(4, end));
      pending = pending.subarray(end);
    }
  };
}

/**
 * A reply whose body is joined and decoded only if the caller reads it: a timed request ends at its
 * last byte, and turning a 140 MB list into a string is the harness's cost, not the server's.
 */
function reply(status: number, chunks: Buffer[]): Reply {
  let bytes = 0;
  for (const c of chunks) bytes += c.length;
  let text: string | undefined;
  return {
    status,
    bytes,
    get body() {
      text ??= Buffer.concat(chunks, bytes).toString('utf8');
      return text;
    },
  };
}

function authHeaders(e: Endpoint): Record<string, string> {
  return e.token === undefined ? {} : { authorization: `Bearer ${e.token}` };
}

function http1(e: Endpoint, sockets: number): ApiClient {
  const url = new URL(e.url);
  const agent = new Agent({
    keepAlive: true,
    maxSockets: sockets,
    ca: e.ca,
    cert: e.cert,
    key: e.key,
    rejectUnauthorized: !e.insecure,
  });
  const base = { host: url.hostname, port: url.port, agent };
  return {
    request(method, path, body, contentType = 'application/json') {
      return new Promise((res, rej) => {
        const req = request(
          {
            ...base,
            method,
            path,
            headers: {
              ...authHeaders(e),
              accept: 'application/json',
              ...(body === undefined
                ? {}
                : { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }),
            },
          },
          (r) => {
            const chunks: Buffer[] = [];
            r.on('data', (d: Buffer) => chunks.push(d));
            r.on('end', () => res(reply(r.statusCode ?? 0, chunks)));
            r.on('error', rej);
          },
        );
        req.on('error', rej);
        req.end(body);
      });
    },
    stream(path, onChunk, signal, accept) {
      return new Promise((res, rej) => {
        const req = request(
          {
            ...base,
            agent: false,
            ca: e.ca,
            cert: e.cert,
            key: e.key,
            rejectUnauthorized: !e.insecure,
            path,
            headers: { ...authHeaders(e), ...(accept === undefined ? {} : { accept }) },
            signal,
          },
          (r) => {
            r.on('data', onChunk);
            r.on('end', () => res());
            r.on('error', () => res());
          },
        );
        req.on('error', (err) => (signal.aborted ? res() : rej(err)));
        req.end();
      });
    },
    close: () => agent.destroy(),
  };
}

function http2(e: Endpoint): ApiClient {
  let session: ClientHttp2Session | undefined;
  const open = () => {
    if (session === undefined || session.closed || session.destroyed) {
      // Flow-control windows as client-go's HTTP/2 transport sets them (4 MiB a stream, 1 GiB the
      // connection): with Node's 64 KiB defaults, a thousand streams on one session wait on
      // WINDOW_UPDATEs rather than on the server.
      session = connect(e.url, {
        ca: e.ca,
        cert: e.cert,
        key: e.key,
        rejectUnauthorized: !e.insecure,
        settings: { initialWindowSize: 4 << 20 },
      });
      const s = session;
      s.once('connect', () => s.setLocalWindowSize(1 << 30));
      session.on('error', () => {});
      // Thousands of concurrent watch streams on one session.
      session.setMaxListeners(0);
    }
    return session;
  };
  return {
    request(method, path, body, contentType = 'application/json') {
      return new Promise((res, rej) => {
        const s = open().request({
          ':method': method,
          ':path': path,
          ...authHeaders(e),
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': contentType }),
        });
        let status = 0;
        const chunks: Buffer[] = [];
        s.on('response', (h) => {
          status = Number(h[':status']);
        });
        s.on('data', (d: Buffer) => chunks.push(d));
        s.on('end', () => res(reply(status, chunks)));
        s.on('error', rej);
        s.end(body);
      });
    },
    stream(path, onChunk, signal, accept) {
      return new Promise((res) => {
        const s = open().request({
          ':method': 'GET',
          ':path': path,
          ...authHeaders(e),
          ...(accept === undefined ? {} : { accept }),
        });
        signal.addEventListener('abort', () => s.close(), { once: true });
        s.on('data', onChunk);
        s.on('close', () => res());
        s.on('error', () => res());
        s.end();
      });
    },
    close: () => session?.close(),
  };
}

export function apiClient(e: Endpoint, protocol: Protocol, sockets = 64): ApiClient {
  return protocol === 'http2' ? http2(e) : http1(e, sockets);
}
