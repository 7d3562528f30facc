// The client addresses an audit event records, as upstream's SourceIPs finds them: every valid
// address of X-Forwarded-For in order, then X-Real-Ip unless already listed, then the peer address
// unless it is already the last one. Addresses are written as Go prints them (an IPv4-mapped IPv6
// address as plain IPv4).

import { isIP } from 'node:net';

type Headers = Record<string, string | string[] | undefined>;

function firstHeader(headers: Headers, name: string): string {
  const v = headers[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

/** The address in Go's canonical text, or undefined when it is not an IP address. */
export function canonicalIp(text: string): string | undefined {
  let t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) t = t.slice(1, -1);
  const kind = isIP(t);
  if (kind === 4) return t;
  if (kind !== 6) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(t);
  if (mapped !== null) return mapped[1];
  // URL's host parser compresses and lowercases an IPv6 address as Go's String() does.
  return new URL(`http://[${t}]/`).hostname.slice(1, -1);
}

export function sourceIps(headers: Headers, peerAddress: string | undefined): string[] {
  const out: string[] = [];
  const forwarded = firstHeader(headers, 'x-forwarded-for');
  if (forwarded !== '') {
    for (const part of forwarded.split(',')) {
      const ip = canonicalIp(part);
      if (ip !== undefined) out.push(ip);
    }
  }
  const realIp = firstHeader(headers, 'x-real-ip');
  if (realIp !== '') {
    const ip = canonicalIp(realIp);
    if (ip !== undefined && !out.includes(ip)) out.push(ip);
  }
  const peer = peerAddress === undefined ? undefined : canonicalIp(peerAddress);
  if (peer !== undefined && out[out.length - 1] !== peer) out.push(peer);
  return out;
}
