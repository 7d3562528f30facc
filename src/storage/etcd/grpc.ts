// gRPC over node:http2, as little of it as etcd needs: unary calls and one bidirectional stream
// kind (Watch), on one HTTP/2 session per member, without TLS. The general clients (grpc-js under
// the etcd3 library) spent about a third of the server's CPU per write on resolvers, load-balancing
// and retry layers, interceptors, metadata objects and call options that an etcd connection never
// uses. Failures surface as GrpcError with gRPC's status code and its "CODE NAME: details" message,
// which faults.ts sorts into failures that may be retried and those that may not.

import http2 from 'node:http2';

const CODE_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

export const UNAVAILABLE = 14;

export class GrpcError extends Error {
  override name = 'GrpcError';
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(`${code} ${CODE_NAMES[code] ?? 'UNKNOWN'}: ${details}`);
  }
}

/** Keepalive pings, as upstream's etcd client: every 30 s, 10 s to answer (policies in the old client). */
const KEEPALIVE_MS = 30_000;
const KEEPALIVE_TIMEOUT_MS = 10_000;

/** Values and range pages may be large: windows wide enough that a 4 MiB answer needs no wait. */
const STREAM_WINDOW = 8 * 1024 * 1024;
const SESSION_WINDOW = 32 * 1024 * 1024;

/** How long calls under way at close() may still take before the connection is cut. */
const CLOSE_GRACE_MS = 5000;

/** RST_STREAM codes as gRPC maps them. */
function resetError(rstCode: number): GrpcError {
  switch (rstCode) {
    case http2.constants.NGHTTP2_REFUSED_STREAM:
      return new GrpcError(UNAVAILABLE, 'Stream refused by server');
    case http2.constants.NGHTTP2_CANCEL:
      return new GrpcError(1, 'Call cancelled');
    case http2.constants.NGHTTP2_ENHANCE_YOUR_CALM:
      return new GrpcError(8, 'Bandwidth exhausted or memory limit exceeded');
    case http2.constants.NGHTTP2_INADEQUATE_SECURITY:
      return new GrpcError(7, 'Protocol not secure enough');
    default:
      return new GrpcError(13, `Received RST_STREAM with code ${rstCode}`);
  }
}

/** A non-gRPC HTTP answer, as gRPC maps its status. */
function httpStatusError(status: number): GrpcError {
  const code =
    status === 400
      ? 13
      : status === 401
        ? 16
        : status === 403
          ? 7
          : status === 404
            ? 12
            : status === 429 || status === 502 || status === 503 || status === 504
              ? UNAVAILABLE
              : 2;
  return new GrpcError(code, `Received HTTP status code ${status}`);
}

function decodeMessage(raw: string | string[] | undefined): string {
  const text = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The status carried by headers or trailers, or undefined when they carry none. */
function statusOf(headers: http2.IncomingHttpHeaders): GrpcError | null | undefined {
  const raw = headers['grpc-status'];
  if (raw === undefined) return undefined;
  const code = Number(raw);
  if (code === 0) return null;
  return new GrpcError(Number.isInteger(code) ? code : 2, decodeMessage(headers['grpc-message']));
}

/** Splits a stream's bytes into gRPC messages (5-byte prefix: compressed flag, big-endian length). */
export class MessageSplitter {
  private pending: Buffer | undefined;

  /** The complete messages `chunk` finishes, as views into the received bytes. */
  push(chunk: Buffer): Buffer[] {
    let buf = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    const out: Buffer[] = [];
    while (buf.length >= 5) {
      if (buf[0] !== 0) throw new GrpcError(13, 'compressed message received without negotiated encoding');
      const len = buf.readUInt32BE(1);
      if (buf.length < 5 + len) break;
      out.push(buf.subarray(5, 5 + len));
      buf = buf.subarray(5 + len);
    }
    if (buf.length > 0) this.pending = buf;
    return out;
  }

  get empty(): boolean {
    return this.pending === undefined;
  }
}

/** A bidirectional call: messages written as framed buffers, answers as they come. */
export interface StreamCall {
  write(framed: Buffer): void;
  /** Ends the call from this side (the stream is reset: etcd needs nothing more polite). */
  cancel(): void;
}

export interface StreamHandlers {
  message(msg: Buffer): void;
  /** The call ended with a failure (never called after cancel()). */
  error(err: GrpcError): void;
  /** The server ended the call with status OK. */
  end(): void;
}

const REQUEST_OPTIONS: http2.ClientSessionRequestOptions = { endStream: false };

/** One member's connection: an HTTP/2 session, opened when first needed and again after it fails. */
export class Channel {
  private session: http2.ClientHttp2Session | undefined;
  /** Sessions that reached the member: a call lost on one of them may have been applied. */
  private readonly reached = new WeakSet<http2.ClientHttp2Session>();
  private pingTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(readonly url: string) {}

  private headers(path: string): http2.OutgoingHttpHeaders {
    return {
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
    };
  }

  private open(): http2.ClientHttp2Session {
    const current = this.session;
    if (current !== undefined && !current.closed && !current.destroyed) return current;
    if (this.closed) throw new GrpcError(1, 'client closed');
    const session = http2.connect(this.url, {
      settings: { initialWindowSize: STREAM_WINDOW, enablePush: false },
      maxSessionMemory: 256,
    });
    this.session = session;
    const retire = () => {
      if (this.session === session) {
        this.session = undefined;
        clearInterval(this.pingTimer);
        this.pingTimer = undefined;
      }
    };
    session.once('connect', () => {
      this.reached.add(session);
      session.setLocalWindowSize(SESSION_WINDOW);
    });
    // The streams learn of a failure from their own events; here the session is only dropped, so
    // that the next call connects again.
    session.on('error', retire);
    session.once('goaway', retire);
    session.once('close', retire);
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.ping(session), KEEPALIVE_MS);
    this.pingTimer.unref();
    return session;
  }

  /** A member that vanished without closing its connection is noticed by an unanswered ping. */
  private ping(session: http2.ClientHttp2Session): void {
    if (session.destroyed || !this.reached.has(session)) return;
    const timer = setTimeout(
      () => session.destroy(new Error('keepalive ping not answered')),
      KEEPALIVE_TIMEOUT_MS,
    );
    timer.unref();
    try {
      session.ping(() => clearTimeout(timer));
    } catch {
      clearTimeout(timer);
    }
  }

  /** A call's stream, on a fresh session when the last one is out of stream ids or going away. */
  private request(path: string): { stream: http2.ClientHttp2Stream; session: http2.ClientHttp2Session } {
    for (let attempt = 0; ; attempt++) {
      const session = this.open();
      try {
        return { stream: session.request(this.headers(path), REQUEST_OPTIONS), session };
      } catch (err) {
        // Out of stream ids, or a session already closing: nothing was sent; a new session serves.
        if (this.session === session) this.session = undefined;
        session.close();
        if (attempt > 0)
          throw new GrpcError(UNAVAILABLE, `No connection established: ${(err as Error).message}`);
      }
    }
  }

  /** The failure of a stream that ended without a status. */
  private lostError(
    err: Error | undefined,
    rstCode: number | undefined,
    session: http2.ClientHttp2Session,
  ): GrpcError {
    if (err instanceof GrpcError) return err;
    if (!this.reached.has(session)) {
      // Never reached the member: certainly not applied.
      return new GrpcError(UNAVAILABLE, `No connection established: ${err?.message ?? 'connection closed'}`);
    }
    // A session's end closes its streams with CANCEL: that is the connection's loss, not a reset.
    if (!session.destroyed && rstCode !== undefined && rstCode !== http2.constants.NGHTTP2_NO_ERROR) {
      return resetError(rstCode);
    }
    return new GrpcError(
      UNAVAILABLE,
      `Connection dropped: ${err?.message ?? 'stream closed without status'}`,
    );
  }

  unary(path: string, framed: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      let session: http2.ClientHttp2Session;
      try {
        ({ stream, session } = this.request(path));
      } catch (err) {
        reject(err);
        return;
      }
      const chunks: Buffer[] = [];
      let status: GrpcError | null | undefined;
      let httpStatus = 0;
      let failure: Error | undefined;
      stream.on('response', (headers) => {
        httpStatus = Number(headers[':status']);
        // Trailers-only answers carry the status in the headers.
        status = statusOf(headers);
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('trailers', (trailers) => {
        const final = statusOf(trailers);
        if (final !== undefined) status = final;
      });
      stream.on('error', (err) => {
        failure = err;
      });
      stream.on('close', () => {
        if (status === undefined) {
          if (httpStatus !== 0 && httpStatus !== 200) reject(httpStatusError(httpStatus));
          else reject(this.lostError(failure, stream.rstCode, session));
          return;
        }
        if (status !== null) {
          reject(status);
          return;
        }
        const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        if (body.length < 5 || body[0] !== 0 || body.readUInt32BE(1) !== body.length - 5) {
          reject(new GrpcError(13, 'malformed answer'));
          return;
        }
        resolve(body.subarray(5));
      });
      stream.end(framed);
    });
  }

  stream(path: string, handlers: StreamHandlers): StreamCall {
    const { stream, session } = this.request(path);
    const splitter = new MessageSplitter();
    let status: GrpcError | null | undefined;
    let httpStatus = 0;
    let failure: Error | undefined;
    let cancelled = false;
    stream.on('response', (headers) => {
      httpStatus = Number(headers[':status']);
      status = statusOf(headers);
    });
    stream.on('data', (chunk: Buffer) => {
      if (cancelled) return;
      let messages: Buffer[];
      try {
        messages = splitter.push(chunk);
      } catch (err) {
        failure = err as Error;
        stream.close(http2.constants.NGHTTP2_CANCEL);
        return;
      }
      for (const m of messages) {
        if (cancelled) return;
        handlers.message(m);
      }
    });
    stream.on('trailers', (trailers) => {
      const final = statusOf(trailers);
      if (final !== undefined) status = final;
    });
    stream.on('error', (err) => {
      failure = err;
    });
    stream.on('close', () => {
      if (cancelled) return;
      cancelled = true;
      if (failure instanceof GrpcError) handlers.error(failure);
      else if (status === null) handlers.end();
      else if (status !== undefined) handlers.error(status);
      else if (httpStatus !== 0 && httpStatus !== 200) handlers.error(httpStatusError(httpStatus));
      else handlers.error(this.lostError(failure, stream.rstCode, session));
    });
    return {
      write: (framed) => {
        if (!cancelled && !stream.destroyed) stream.write(framed);
      },
      cancel: () => {
        if (cancelled) return;
        cancelled = true;
        if (!stream.destroyed) stream.close(http2.constants.NGHTTP2_CANCEL);
      },
    };
  }

  /**
   * No new calls; those under way still get their answers (as a gRPC channel's close), and the
   * connection ends after them, or after a few seconds whatever is left.
   */
  close(): void {
    this.closed = true;
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    const session = this.session;
    this.session = undefined;
    if (session === undefined || session.destroyed) return;
    session.close();
    setTimeout(() => session.destroy(), CLOSE_GRACE_MS).unref();
  }
}
