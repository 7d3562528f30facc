// Raw connections for the hostile scenario: TLS sockets that speak just enough HTTP/1.1 to open a
// watch or make one request, so that the harness decides exactly when (and whether) a socket is
// read. An HTTP client reads whatever arrives; a slow watcher must not.
// And a census of those sockets from the kernel's table: a paused socket never reads the server's
// FIN or RST, so only /proc/net/tcp tells whether the server closed it.

import { readFileSync } from 'node:fs';
import { connect, type TLSSocket } from 'node:tls';
import type { Endpoint } from './target.ts';

/** The hostile load goes to this machine's loopback only: pointed elsewhere it would be an attack. */
export function assertLoopback(e: Endpoint): void {
  const host = new URL(e.url).hostname.replace(/^\[|\]$/g, '');
  if (!['127.0.0.1', 'localhost', '::1'].includes(host))
    throw new Error(`the hostile scenario drives only a server on 127.0.0.1, not ${host}`);
}

export function serverPort(e: Endpoint): number {
  const url = new URL(e.url);
  return Number(url.port === '' ? 443 : url.port);
}

/** A TLS connection that offers only HTTP/1.1, with the endpoint's credentials. */
export function openTls(e: Endpoint, timeoutMs: number): Promise<TLSSocket> {
  const url = new URL(e.url);
  return new Promise((res, rej) => {
    const socket = connect({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: serverPort(e),
      ca: e.ca,
      cert: e.cert,
      key: e.key,
      rejectUnauthorized: !e.insecure,
      ALPNProtocols: ['http/1.1'],
    });
    const timer = setTimeout(() => {
      socket.destroy();
      rej(Object.assign(new Error('TLS handshake timed out'), { code: 'HANDSHAKE_TIMEOUT' }));
    }, timeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      // Errors after the handshake are the server's outcome, counted by whoever holds the socket.
      socket.on('error', () => {});
      res(socket);
    });
    const onError = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      rej(err);
    };
    socket.once('error', onError);
  });
}

/** A keep-alive GET as its request line and headers. */
export function getRequest(e: Endpoint, path: string, accept = 'application/json'): string {
  const url = new URL(e.url);
  const auth = e.token === undefined ? '' : `Authorization: Bearer ${e.token}\r\n`;
  return `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: ${accept}\r\n${auth}Connection: keep-alive\r\n\r\n`;
}

/**
 * Reads a response's status line and headers and then pauses the socket, whatever else came with
 * them: from here on the socket is read only if its holder resumes it. The status; 0 if the socket
 * closed or the time ran out first.
 */
export function readHeadThenPause(socket: TLSSocket, timeoutMs: number): Promise<number> {
  return new Promise((res) => {
    let head = '';
    const done = (status: number) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      // Paused, the socket stops reading from the kernel once its small buffer is full, and the
      // server's writes back up through TCP: the backpressure a stalled client applies.
      socket.pause();
      res(status);
    };
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1 && head.length < 65536) return;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      done(m === null ? 0 : Number(m[1]));
    };
    const onClose = () => done(0);
    const timer = setTimeout(() => done(0), timeoutMs);
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

/** TCP states of /proc/net/tcp, by their hex code. */
const STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0B': 'CLOSING',
};

export interface Census {
  /** Our sockets the kernel still holds open both ways. */
  established: number;
  /**
   * The local ports of our sockets the server closed: a FIN came (CLOSE_WAIT and the like), or the
   * kernel dropped them altogether (a RST).
   */
  closedPorts: number[];
  /** Bytes the kernel holds for our sockets, unread: the backpressure that built up. */
  unreadBytes: number;
  /**
   * Bytes the server's kernel holds queued to our sockets (its send buffers, which grow to a few
   * MiB a connection): memory a stalled reader costs that is in no process's RSS.
   */
  serverQueuedBytes: number;
}

/**
 * Where the kernel stands on our connections to the server port, those whose local ports are
 * given. Linux only; without /proc every socket counts as established.
 */
export function census(localPorts: ReadonlySet<number>, remotePort: number): Census {
  const states = new Map<number, string>();
  let unreadBytes = 0;
  let serverQueuedBytes = 0;
  let readable = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'latin1');
      readable = true;
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      // sl local rem st tx_queue:rx_queue ...; addresses are HEXIP:HEXPORT.
      const f = line.trim().split(/\s+/);
      if (f.length < 5 || !f[1].includes(':')) continue;
      const local = Number.parseInt(f[1].slice(f[1].lastIndexOf(':') + 1), 16);
      const remote = Number.parseInt(f[2].slice(f[2].lastIndexOf(':') + 1), 16);
      const [tx, rx] = f[4].split(':').map((x) => Number.parseInt(x, 16));
      // The server's end of one of our connections.
      if (local === remotePort && localPorts.has(remote)) serverQueuedBytes += tx;
      if (remote !== remotePort || !localPorts.has(local)) continue;
      states.set(local, STATES[f[3]] ?? f[3]);
      unreadBytes += rx;
    }
  }
  if (!readable)
    return { established: localPorts.size, closedPorts: [], unreadBytes: 0, serverQueuedBytes: 0 };
  const closedPorts = [...localPorts].filter((p) => states.get(p) !== 'ESTABLISHED');
  return { established: localPorts.size - closedPorts.length, closedPorts, unreadBytes, serverQueuedBytes };
}
