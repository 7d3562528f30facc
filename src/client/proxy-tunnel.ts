// A connection to the API server through an HTTP proxy (a cluster's proxy-url): an HTTP CONNECT to
// the proxy, and once it answers 200, a byte stream to the server on which the transport runs TLS and
// HTTP/2 as on a direct connection. The stream exists at once (HTTP/2's connect wants a socket
// synchronously); what is written before the proxy answers waits, and the proxy's answer itself
// never reaches TLS. Credentials in the proxy URL go as Proxy-Authorization: Basic, as Go sends them.

import { connect as netConnect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';

const MAX_RESPONSE_HEAD = 16 * 1024;

/** Checks a proxy URL for what this tunnel supports: http or https proxies. */
export function checkProxyUrl(proxyUrl: string): URL {
  const url = new URL(proxyUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(
      `proxy URL "${proxyUrl}": only http and https proxies are supported, not ${url.protocol.slice(0, -1)}`,
    );
  return url;
}

class Tunnel extends Duplex {
  private readonly socket: Socket;
  private open = false;
  private waiting: { chunk: Buffer; done: (err?: Error | null) => void }[] = [];

  constructor(proxy: URL, target: string, connectTimeoutMs: number) {
    super();
    const port = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
    const host = proxy.hostname.replace(/^\[|\]$/g, '');
    this.socket =
      proxy.protocol === 'https:' ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port });
    this.socket.setTimeout(connectTimeoutMs, () =>
      this.destroy(new Error(`timed out connecting through proxy ${proxy.host}`)),
    );
    const auth =
      proxy.username !== ''
        ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n`
        : '';
    this.socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
    let head = Buffer.alloc(0);
    const onHead = (data: Buffer) => {
      head = Buffer.concat([head, data]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_RESPONSE_HEAD)
          this.destroy(new Error(`proxy ${proxy.host} sent an oversized answer`));
        return;
      }
      this.socket.off('data', onHead);
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      if (!/^HTTP\/1\.[01] 200\b/.test(statusLine)) {
        this.destroy(new Error(`proxy ${proxy.host} refused CONNECT ${target}: ${statusLine}`));
        return;
      }
      this.socket.setTimeout(0);
      this.open = true;
      const rest = head.subarray(end + 4);
      if (rest.length > 0) this.push(rest);
      this.socket.on('data', (d: Buffer) => {
        if (!this.push(d)) this.socket.pause();
      });
      for (const w of this.waiting) this.socket.write(w.chunk, w.done);
      this.waiting = [];
    };
    this.socket.on('data', onHead);
    this.socket.on('end', () => {
      if (this.open) this.push(null);
      else this.destroy(new Error(`proxy ${proxy.host} closed the connection before answering CONNECT`));
    });
    this.socket.on('error', (err) => this.destroy(err));
    this.socket.on('close', () => {
      if (this.destroyed) return;
      if (this.open) this.destroy();
      else this.destroy(new Error(`proxy ${proxy.host} closed the connection before answering CONNECT`));
    });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.open) this.socket.write(chunk, done);
    else this.waiting.push({ chunk, done });
  }

  override _read(): void {
    if (this.open) this.socket.resume();
  }

  override _final(done: (err?: Error | null) => void): void {
    this.socket.end(done);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    for (const w of this.waiting) w.done(err ?? new Error('proxy tunnel closed'));
    this.waiting = [];
    this.socket.destroy();
    done(err);
  }
}

/** A byte stream to `host:port` through the proxy. */
export function proxyTunnel(proxy: URL, host: string, port: number, connectTimeoutMs: number): Duplex {
  const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new Tunnel(proxy, target, connectTimeoutMs);
}
