// The HTTP/2 connections of one transport: one per client certificate (a changed certificate gets a
// new connection, so a new TLS handshake presents it, and the old ones take no new streams and close
// once their streams end), another when the server's concurrent-stream limit is reached (as Go's
// transport opens one). A cluster's proxy-url is refused when the client is made: the CONNECT
// tunnel under HTTP/2 and TLS failed on Node 24, so no proxy support ships until it holds on every
// supported runtime. Connections are pinged
// every 30 s, as Go's ReadIdleTimeout does, so a dead peer is noticed within the ping timeout rather
// than a TCP timeout; one without streams neither keeps the process alive nor stays open past 90 s.

import { type ClientHttp2Session, type ClientHttp2Stream, connect } from 'node:http2';
import type { Credentials } from './api.ts';
import { refuseProxyUrl } from './proxy-url.ts';

export interface ConnectionPoolOptions {
  caPem?: string;
  insecureSkipTlsVerify?: boolean;
  tlsServerName?: string;
  proxyUrl?: string;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
}

/** Before a server's SETTINGS arrive, Go clients assume 100 concurrent streams; so do we. */
const ASSUMED_MAX_STREAMS = 100;
/** Per-stream and per-connection receive windows: Go's transport uses 4 MiB per stream. */
const STREAM_WINDOW = 4 << 20;
const CONNECTION_WINDOW = 32 << 20;

export interface Conn {
  session: ClientHttp2Session;
  /** The client certificate and key it presented ('' for none). */
  key: string;
  active: number;
  usable: boolean;
  idleTimer?: NodeJS.Timeout;
}

export class ConnectionPool {
  private readonly conns = new Set<Conn>();

  constructor(
    private readonly origin: URL,
    private readonly options: ConnectionPoolOptions,
  ) {
    if (options.proxyUrl) refuseProxyUrl(options.proxyUrl);
  }

  /** Closes every connection at once; their streams fail. */
  close(): void {
    for (const c of this.conns) c.session.destroy();
    this.conns.clear();
  }

  /** A connection for these credentials' certificate with a free stream, opening one if need be. */
  connection(creds: Credentials): Conn {
    const key =
      creds.clientCertificatePem === undefined ? '' : `${creds.clientCertificatePem}\n${creds.clientKeyPem}`;
    for (const c of this.conns) {
      if (c.key !== key && c.usable) {
        // The certificate changed: no new streams on connections that present the old one.
        c.usable = false;
        this.retire(c);
      }
    }
    for (const c of this.conns) {
      if (!c.usable || c.session.closed || c.session.destroyed) continue;
      const limit = Math.min(c.session.remoteSettings.maxConcurrentStreams ?? ASSUMED_MAX_STREAMS, 1 << 20);
      if (c.active < limit) return c;
    }
    return this.open(key, creds);
  }

  private open(key: string, creds: Credentials): Conn {
    const o = this.options;
    const connectTimeoutMs = o.connectTimeoutMs ?? 30_000;
    const tlsOptions = {
      ca: o.caPem,
      cert: creds.clientCertificatePem,
      key: creds.clientKeyPem,
      rejectUnauthorized: !o.insecureSkipTlsVerify,
      ...(o.tlsServerName !== undefined ? { servername: o.tlsServerName } : {}),
    };
    const session = connect(this.origin.origin, {
      ...tlsOptions,
      settings: { enablePush: false, initialWindowSize: STREAM_WINDOW },
      peerMaxConcurrentStreams: ASSUMED_MAX_STREAMS,
    });
    const conn: Conn = { session, key, active: 0, usable: true };
    this.conns.add(conn);
    const connectTimer = setTimeout(
      () => session.destroy(new Error(`timed out connecting after ${connectTimeoutMs}ms`)),
      connectTimeoutMs,
    );
    const pingTimer = setInterval(() => this.ping(conn), o.pingIntervalMs ?? 30_000);
    pingTimer.unref();
    session.once('connect', () => {
      clearTimeout(connectTimer);
      if (!session.destroyed) session.setLocalWindowSize(CONNECTION_WINDOW);
    });
    const gone = () => {
      conn.usable = false;
      this.conns.delete(conn);
    };
    session.on('goaway', gone);
    session.on('error', gone);
    session.once('close', () => {
      gone();
      clearTimeout(connectTimer);
      clearInterval(pingTimer);
      clearTimeout(conn.idleTimer);
    });
    return conn;
  }

  private ping(conn: Conn): void {
    const session = conn.session;
    if (session.destroyed || !session.socket) return;
    const timeoutMs = this.options.pingTimeoutMs ?? 15_000;
    const timer = setTimeout(() => session.destroy(new Error('http2: client connection lost')), timeoutMs);
    timer.unref();
    try {
      session.ping((err) => {
        clearTimeout(timer);
        if (err && !session.destroyed) session.destroy(err);
      });
    } catch {
      clearTimeout(timer);
    }
  }

  /** Counts a connection's streams: an idle one neither keeps the process alive nor stays open for long. */
  track(conn: Conn, stream: ClientHttp2Stream): void {
    conn.active++;
    clearTimeout(conn.idleTimer);
    conn.idleTimer = undefined;
    conn.session.ref();
    stream.once('close', () => {
      conn.active--;
      if (conn.active > 0) return;
      if (!conn.usable) {
        this.retire(conn);
        return;
      }
      if (!conn.session.destroyed) conn.session.unref();
      conn.idleTimer = setTimeout(() => this.retire(conn), this.options.idleTimeoutMs ?? 90_000);
      conn.idleTimer.unref();
    });
  }

  /** Closes a connection once its streams are done. */
  private retire(conn: Conn): void {
    conn.usable = false;
    this.conns.delete(conn);
    if (conn.active === 0 && !conn.session.closed) conn.session.close();
  }
}
