// The HTTPS listener: HTTP/2 and HTTP/1.1 on one port, chosen by ALPN, with client certificates
// requested (not required) so the authenticator can read them. Keeps track of connections so that
// shutdown can stop accepting, let in-flight requests finish, and then close what is left.
// It also holds the connection-level limits upstream's server has (secure_serving.go): idle, header
// and handshake timeouts, the header size, the HTTP/2 stream limit and buffer sizes, Go's bound on
// handlers per HTTP/2 connection against rapid resets, and our bound on open connections.

import { X509Certificate } from 'node:crypto';
import {
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
  constants as h2,
} from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_CIPHERS, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { chainProblem, parseCertificateBundle } from '../auth/authn/request-header-chain.ts';
import type { PeerCertificate } from '../auth/authn/types.ts';
import { ConnectionLimit } from './connection-limit.ts';
import { closeWhenIdle } from './idle-session.ts';
import { StreamScheduler } from './stream-scheduler.ts';

/**
 * TLS 1.3 suites in the order a Go server prefers them on hardware with AES instructions: AES-128-GCM
 * first. Go clients (kubectl, client-go) offer it first already; Node's and Python's clients lead
 * with AES-256-GCM, which honouring the client's order would pick. AES-128 encrypts every byte of a
 * list or a watch stream about 15% cheaper on both ends, and it is what kube-apiserver negotiates.
 * TLS 1.2 keeps Node's defaults, which already start with the ECDHE AES-128-GCM suites.
 */
const TLS13_SUITES = ['TLS_AES_128_GCM_SHA256', 'TLS_CHACHA20_POLY1305_SHA256', 'TLS_AES_256_GCM_SHA384'];
const SERVER_CIPHERS = [
  ...TLS13_SUITES,
  ...DEFAULT_CIPHERS.split(':').filter((c) => !TLS13_SUITES.includes(c)),
].join(':');

/** Connection-level limits; each defaults to upstream's value (CONNECTION_DEFAULTS). */
export interface ConnectionLimits {
  /** Streams a client may have open on one HTTP/2 connection, and handlers running for it. */
  maxStreamsPerConnection: number;
  /** A connection with no request in progress is closed after this long. */
  idleTimeoutMs: number;
  /** Time for a TLS handshake, and for a request's headers to arrive. */
  headerTimeoutMs: number;
  /**
   * The deadline of a request that is not long-running. The filter chain answers it; the listener
   * only closes an HTTP/1.1 connection whose request is still arriving well past it.
   */
  requestTimeoutMs: number;
  /** Open connections; past it, new ones are refused (connection-limit.ts). */
  maxConnections: number;
  /** Bytes of request headers. */
  maxHeaderBytes: number;
}

/** At least 99% of objects in surveyed clusters are smaller than this (upstream's reasoning). */
const BODY_99TH_PERCENTILE_BYTES = 256 * 1024;

export const CONNECTION_DEFAULTS: ConnectionLimits = {
  // secure_serving.go: with --http2-max-streams-per-connection unset (0), 100, as Go clients assume
  // before the server's settings arrive; so a rapid-resetting client gets at most 400 waiting.
  maxStreamsPerConnection: 100,
  // secure_serving.go: IdleTimeout 90 s ("matches http.DefaultTransport keep-alive timeout").
  idleTimeoutMs: 90_000,
  // secure_serving.go: ReadHeaderTimeout 32 s ("just shy of requestTimeoutUpperBound"); Go's TLS
  // handshake deadline is the same value.
  headerTimeoutMs: 32_000,
  // --request-timeout's default.
  requestTimeoutMs: 60_000,
  // Ours (upstream has none). An idle TLS connection costs about 60 KB here (2,000 idle HTTP/1.1
  // keep-alive connections: +118 MB RSS), so 4,096 hold at most about 250 MB. Fewer would refuse
  // honest loads: clients that watch over HTTP/1.1 (the Python client, the benchmarks' thousand
  // watchers with their writers beside them) take a connection per watch. Node raises its
  // descriptor limit to the hard limit at start, which is far above this on current systems.
  maxConnections: 4096,
  // secure_serving.go: MaxHeaderBytes 1 << 20.
  maxHeaderBytes: 1 << 20,
};

export interface ListenerOptions {
  host: string;
  port: number;
  certPem: string;
  keyPem: string;
  /** CA bundle for client certificates; none means client certificates are not asked for. */
  clientCaPem?: string;
  /**
   * The authenticating proxy's CA bundle (--requestheader-client-ca-file). Its certificates are
   * asked for and accepted too (clients only send one whose issuer the server lists), but only
   * the client CA makes a certificate's `verified` true; the chain goes along for the proxy's
   * authenticator to check against its own CA.
   */
  requestHeaderCaPem?: string;
  /** Handles a request; the promise settles when its work is done (HTTP/2 handler accounting). */
  onRequest: (req: Http2ServerRequest, res: Http2ServerResponse) => Promise<void> | void;
  /** Answers a request on a connection past the connection bound (a 429 Status, say). */
  onRefused?: (req: Http2ServerRequest, res: Http2ServerResponse) => void;
  limits?: Partial<ConnectionLimits>;
}

export interface ListenerStats {
  /** Open connections admitted (refused ones are not counted). */
  connections: number;
  /** Request handlers whose work has not settled, including those of streams already reset. */
  handlers: number;
  /** Requests received since the listener opened (for benchmarks that count a workload's calls). */
  requests: number;
}

export interface Listener {
  server: Http2SecureServer;
  port: number;
  stats(): ListenerStats;
  /** Stops accepting, waits up to `graceMs` for in-flight requests, then closes every connection. */
  close(graceMs: number): Promise<void>;
}

/** Node's HTTP/1.1 server reads these from the server object (Http2SecureServer leaves some unset). */
interface Http1Settings {
  keepAliveTimeout?: number;
  headersTimeout?: number;
  requestTimeout?: number;
  connectionsCheckingInterval?: number;
  maxHeaderSize?: number;
}

/**
 * nghttp2's own rapid-reset limiter (default: a burst of 1000, then 33 a second) ends a session
 * from inside one read with INTERNAL_ERROR, or on Node 22 with a protocol error whose GOAWAY races
 * the socket's close. Set well above the handler bound, it stays a backstop and the bound answers
 * first with Go's GOAWAY ENHANCE_YOUR_CALM (StreamScheduler). Node 20 has no such setting and
 * ignores these (nor does @types/node 20 declare them, hence the spread of a separate object).
 */
const RESET_LIMITER: { streamResetBurst: number; streamResetRate: number } = {
  streamResetBurst: 10_000,
  streamResetRate: 1_000,
};

export async function listen(opts: ListenerOptions): Promise<Listener> {
  const limits = { ...CONNECTION_DEFAULTS, ...opts.limits };
  const maxStreams = limits.maxStreamsPerConnection;
  const caBundles = [opts.clientCaPem, opts.requestHeaderCaPem].filter((p) => p !== undefined);
  const split: SplitVerification | undefined =
    opts.requestHeaderCaPem === undefined
      ? undefined
      : {
          clientAnchors:
            opts.clientCaPem === undefined
              ? []
              : parseCertificateBundle(opts.clientCaPem, 'client CA bundle'),
        };
  const server = createSecureServer({
    allowHTTP1: true,
    key: opts.keyPem,
    cert: opts.certPem,
    ca: caBundles.length === 0 ? undefined : caBundles.join('\n'),
    requestCert: caBundles.length > 0,
    rejectUnauthorized: false,
    minVersion: 'TLSv1.2',
    ciphers: SERVER_CIPHERS,
    honorCipherOrder: true,
    handshakeTimeout: limits.headerTimeoutMs,
    ...RESET_LIMITER,
    settings: {
      maxConcurrentStreams: maxStreams,
      // secure_serving.go: per-stream receive buffer and frame size shrunk from Go's 1 MB to what
      // holds nearly every object in one frame.
      initialWindowSize: BODY_99TH_PERCENTILE_BYTES,
      maxFrameSize: BODY_99TH_PERCENTILE_BYTES,
      maxHeaderListSize: limits.maxHeaderBytes,
    },
  });
  const http1 = server as unknown as Http1Settings;
  http1.keepAliveTimeout = limits.idleTimeoutMs;
  http1.headersTimeout = limits.headerTimeoutMs;
  // A backstop only: the filter chain's deadline (which starts once the headers are in) answers
  // first with a Status; this closes a connection whose request body is still trickling after it.
  http1.requestTimeout = limits.requestTimeoutMs + limits.headerTimeoutMs;
  http1.connectionsCheckingInterval = Math.max(50, Math.min(5_000, limits.headerTimeoutMs / 4));
  http1.maxHeaderSize = limits.maxHeaderBytes;

  const limit = new ConnectionLimit(limits.maxConnections);
  server.maxConnections = limit.acceptLimit;
  const schedulers = new WeakMap<Http2Session, StreamScheduler>();
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  let inFlight = 0;
  let handlers = 0;
  let requests = 0;
  let drained: (() => void) | undefined;
  server.on('secureConnection', (socket: TLSSocket) => {
    sockets.add(socket);
    if (split !== undefined) (socket as SplitSocket)[SPLIT] = split;
    socket.on('close', () => sockets.delete(socket));
    // HTTP/2 connections are admitted as sessions (below), which Node made before this ran.
    if (socket.alpnProtocol !== 'h2') limit.admit(socket, () => socket.destroy());
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    const scheduler = new StreamScheduler(maxStreams, () => {
      // Go's answer to a client that resets faster than it reads: GOAWAY ENHANCE_YOUR_CALM. Not
      // from inside the frame callback this runs in (nghttp2 fails the session then, without it).
      // By then nghttp2's own reset limiter may have ended the session: goaway would throw.
      setImmediate(() => {
        if (session.destroyed) return;
        session.goaway(h2.NGHTTP2_ENHANCE_YOUR_CALM);
        session.destroy();
      });
    });
    schedulers.set(session, scheduler);
    session.on('close', () => {
      sessions.delete(session);
      scheduler.clear();
    });
    // secure_serving.go: the connection's receive buffer holds a full buffer for every stream.
    session.once('localSettings', () => {
      if (!session.destroyed) session.setLocalWindowSize(BODY_99TH_PERCENTILE_BYTES * maxStreams);
    });
    closeWhenIdle(session, limits.idleTimeoutMs);
    limit.admit(session, () => session.destroy());
  });
  server.on('request', (_req: Http2ServerRequest, res: Http2ServerResponse) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
  });
  const runHandler = (req: Http2ServerRequest, res: Http2ServerResponse): Promise<void> | undefined => {
    handlers++;
    requests++;
    let work: Promise<void> | void;
    try {
      work = opts.onRequest(req, res);
    } catch {
      work = undefined;
    }
    if (work === undefined) {
      handlers--;
      return undefined;
    }
    return work.then(
      () => {
        handlers--;
      },
      () => {
        handlers--;
      },
    );
  };
  const refuse = (req: Http2ServerRequest, res: Http2ServerResponse, closeConnection: () => void) => {
    res.once('close', closeConnection);
    if (opts.onRefused === undefined) res.writeHead(429).end();
    else opts.onRefused(req, res);
  };
  server.on('request', (req: Http2ServerRequest, res: Http2ServerResponse) => {
    const stream = req.stream as Http2ServerRequest['stream'] | undefined;
    if (stream === undefined) {
      // HTTP/1.1: one request at a time per connection; Node's server paces them.
      const socket = req.socket;
      if (limit.isRefused(socket)) {
        res.setHeader('connection', 'close');
        refuse(req, res, () => socket.destroy());
        return;
      }
      void runHandler(req, res);
      return;
    }
    const session = stream.session;
    if (session === undefined) return;
    if (limit.isRefused(session)) {
      refuse(req, res, () => session.close());
      return;
    }
    schedulers.get(session)?.admit({
      // A stream reset before its handler could start costs nothing more.
      start: () => (stream.destroyed ? undefined : runHandler(req, res)),
      gone: () => stream.destroyed,
    });
  });
  // A client that sends garbage must not take the process down.
  server.on('tlsClientError', () => {});
  server.on('sessionError', () => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    server,
    port,
    stats: () => ({ connections: limit.connections, handlers, requests }),
    async close(graceMs: number) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sessions) s.close();
      if (inFlight > 0) {
        await Promise.race([
          new Promise<void>((resolve) => {
            drained = resolve;
          }),
          new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
        ]);
      }
      for (const s of sessions) s.destroy();
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/**
 * Client certificates by connection: reading one builds a large object, and a connection keeps
 * its certificate for life (TLS 1.3 has no renegotiation), so each socket is read once.
 */
const peerCertificates = new WeakMap<TLSSocket, PeerCertificate | undefined>();

/** The client certificate of the connection a request came on, as the authenticator wants it. */
export function peerCertificateOf(req: Http2ServerRequest): PeerCertificate | undefined {
  const socket = (req.stream?.session?.socket ?? req.socket) as TLSSocket | undefined;
  if (socket === undefined || typeof socket.getPeerCertificate !== 'function') return undefined;
  if (peerCertificates.has(socket)) return peerCertificates.get(socket);
  const found = readPeerCertificate(socket);
  peerCertificates.set(socket, found);
  return found;
}

/** Connections whose TLS layer also accepts the proxy's CA: their verdict is split by bundle. */
interface SplitVerification {
  clientAnchors: X509Certificate[];
}
/**
 * Kept on the socket itself: an HTTP/2 request reaches its socket through a proxy object, which
 * forwards property reads but is not the same key for a WeakMap.
 */
const SPLIT = Symbol('split verification');
type SplitSocket = TLSSocket & { [SPLIT]?: SplitVerification };

function readPeerCertificate(socket: TLSSocket): PeerCertificate | undefined {
  const split = (socket as SplitSocket)[SPLIT];
  const cert = socket.getPeerCertificate(split !== undefined);
  if (cert === null || cert === undefined || Object.keys(cert).length === 0) return undefined;
  const subject = (cert.subject ?? {}) as unknown as Record<string, string | string[] | undefined>;
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const found: PeerCertificate = {
    verified: socket.authorized,
    verifyError: socket.authorizationError === null ? undefined : String(socket.authorizationError),
    commonName: list(subject.CN)[0] ?? '',
    organizations: list(subject.O),
    extKeyUsage: cert.ext_key_usage,
  };
  if (split === undefined) return found;
  // Asked for in detail above, so the issuers are there.
  const chain = peerChain(cert as DetailedPeerCertificate);
  found.chain = chain;
  if (found.verified) {
    const problem = chainProblem(chain, split.clientAnchors);
    if (problem !== undefined) {
      found.verified = false;
      found.verifyError = problem;
    }
  }
  return found;
}

/** The leaf and the certificates above it, as the TLS layer assembled them, each once. */
function peerChain(leaf: DetailedPeerCertificate): X509Certificate[] {
  const out: X509Certificate[] = [];
  const seen = new Set<DetailedPeerCertificate>();
  for (
    let c: DetailedPeerCertificate | undefined = leaf;
    c !== undefined && !seen.has(c);
    c = c.issuerCertificate
  ) {
    seen.add(c);
    if (c.raw === undefined) break;
    out.push(new X509Certificate(c.raw));
  }
  return out;
}
