// The value semantics of upstream's CEL IP library (kubernetes.net.ip): ip(), isIP,
// ip.isCanonical, family, the address class predicates, string(), equality and size. Addresses
// are netip addresses without zones and never IPv4-mapped IPv6, since ip() refuses both.

import { goQuote } from '../../machinery/field-errors.ts';
import { AddrParseError, formatAddr, isIPv4Mapped, parseAddr } from './netip.ts';

/** An IPv4 (4 bytes) or IPv6 (16 bytes) address. Immutable. */
export class IPAddr {
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    if (bytes.length !== 4 && bytes.length !== 16) throw new RangeError('an IP address has 4 or 16 bytes');
    this.bytes = Uint8Array.from(bytes);
  }

  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }

  /** Go's canonical form: dotted decimal or RFC 5952. */
  toString(): string {
    return formatAddr(this.bytes);
  }

  equals(other: IPAddr): boolean {
    return this.bytes.length === other.bytes.length && this.bytes.every((b, i) => b === other.bytes[i]);
  }
}

/** A value ip() and the other functions refuse; the message is upstream's. */
export class IPError extends Error {
  override name = 'IPError';
}

/**
 * ip(string): netip parsing, then no zone and no IPv4-mapped IPv6 address. Throws IPError with
 * upstream's message.
 */
export function parseIP(raw: string): IPAddr {
  let parsed: ReturnType<typeof parseAddr>;
  try {
    parsed = parseAddr(raw);
  } catch (e) {
    if (!(e instanceof AddrParseError)) throw e;
    throw new IPError(`IP Address ${goQuote(raw)} parse error during conversion from string: ${e.message}`);
  }
  if (parsed.zone !== '') throw new IPError(`IP address ${goQuote(raw)} with zone value is not allowed`);
  if (isIPv4Mapped(parsed.bytes))
    throw new IPError(`IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  return new IPAddr(parsed.bytes);
}

/** isIP(string): true exactly when ip() would not fail. */
export function isIP(raw: string): boolean {
  try {
    parseIP(raw);
    return true;
  } catch (e) {
    if (e instanceof IPError) return false;
    throw e;
  }
}

/** ip.isCanonical(string): whether the text is the canonical form; throws IPError like ip(). */
export function ipIsCanonical(raw: string): boolean {
  return parseIP(raw).toString() === raw;
}

export function ipFamily(ip: IPAddr): 4 | 6 {
  return ip.family;
}

function isZero(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0);
}

/** 0.0.0.0 or ::. */
export function ipIsUnspecified(ip: IPAddr): boolean {
  return isZero(ip.bytes);
}

/** 127.0.0.0/8 or ::1. */
export function ipIsLoopback(ip: IPAddr): boolean {
  const b = ip.bytes;
  if (b.length === 4) return b[0] === 127;
  return isZero(b.subarray(0, 15)) && b[15] === 1;
}

function isMulticast(ip: IPAddr): boolean {
  const b = ip.bytes;
  return b.length === 4 ? (b[0] & 0xf0) === 0xe0 : b[0] === 0xff;
}

/** 224.0.0.0/24, or an IPv6 multicast address of link-local scope (ffx2::/16). */
export function ipIsLinkLocalMulticast(ip: IPAddr): boolean {
  const b = ip.bytes;
  if (b.length === 4) return b[0] === 224 && b[1] === 0 && b[2] === 0;
  return b[0] === 0xff && (b[1] & 0x0f) === 0x02;
}

/** 169.254.0.0/16 or fe80::/10. */
export function ipIsLinkLocalUnicast(ip: IPAddr): boolean {
  const b = ip.bytes;
  if (b.length === 4) return b[0] === 169 && b[1] === 254;
  return b[0] === 0xfe && (b[1] & 0xc0) === 0x80;
}

/**
 * Go's definition: anything but unspecified, the IPv4 broadcast address, loopback, multicast and
 * link-local unicast (private and unique-local addresses count as global).
 */
export function ipIsGlobalUnicast(ip: IPAddr): boolean {
  const b = ip.bytes;
  if (b.length === 4 && b.every((x) => x === 255)) return false;
  return !ipIsUnspecified(ip) && !ipIsLoopback(ip) && !isMulticast(ip) && !ipIsLinkLocalUnicast(ip);
}

/** string(ip). */
export function ipToString(ip: IPAddr): string {
  return ip.toString();
}

/** CEL equality of two IPs: same family and bytes. */
export function ipEquals(a: IPAddr, b: IPAddr): boolean {
  return a.equals(b);
}

/** The size upstream's cost model uses: the address length in bytes. */
export function ipSize(ip: IPAddr): number {
  return ip.bytes.length;
}
