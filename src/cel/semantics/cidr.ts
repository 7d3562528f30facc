// The value semantics of upstream's CEL CIDR library (net.cidr): cidr(), isCIDR, containsIP,
// containsCIDR, ip(), masked(), prefixLength(), string(), equality and size. A CIDR keeps the
// address as written (`192.168.0.1/24` is accepted, and ip() returns 192.168.0.1); masked() gives
// the network. Equality compares address and length as written, so a CIDR with host bits set is
// not equal to its masked form.

import { goQuote } from '../../machinery/field-errors.ts';
import { IPAddr, IPError, parseIP } from './ip.ts';
import { AddrParseError, formatAddr, isIPv4Mapped, parseAddr } from './netip.ts';

export class CIDR {
  readonly ip: IPAddr;
  readonly prefixLength: number;

  constructor(ip: IPAddr, prefixLength: number) {
    const max = ip.family === 4 ? 32 : 128;
    if (!Number.isInteger(prefixLength) || prefixLength < 0 || prefixLength > max) {
      throw new RangeError('prefix length out of range');
    }
    this.ip = ip;
    this.prefixLength = prefixLength;
  }

  /** `<address as written>/<bits>`. */
  toString(): string {
    return `${formatAddr(this.ip.bytes)}/${this.prefixLength}`;
  }

  equals(other: CIDR): boolean {
    return this.prefixLength === other.prefixLength && this.ip.equals(other.ip);
  }
}

/** A value cidr() or containsCIDR refuse; the message is upstream's. */
export class CIDRError extends Error {
  override name = 'CIDRError';
}

const CONVERSION = 'network address parse error during conversion from string: ';
const MAX_INT = (1n << 63n) - 1n;

// Go's netip.ParsePrefix; throws with its `netip.ParsePrefix("..."): ...` message.
function parsePrefix(s: string): { bytes: Uint8Array; bits: number } {
  const fail = (msg: string): never => {
    throw new CIDRError(`netip.ParsePrefix(${goQuote(s)}): ${msg}`);
  };
  const slash = s.lastIndexOf('/');
  if (slash < 0) fail("no '/'");
  let addr: ReturnType<typeof parseAddr>;
  try {
    addr = parseAddr(s.slice(0, slash));
  } catch (e) {
    if (!(e instanceof AddrParseError)) throw e;
    return fail(e.message);
  }
  if (addr.zone !== '') fail('IPv6 zones cannot be present in a prefix');
  const bitsText = s.slice(slash + 1);
  // Go's Atoi would take a sign or leading zeros; ParsePrefix refuses both.
  if (!/^(0|[1-9][0-9]*)$/.test(bitsText) || BigInt(bitsText) > MAX_INT) {
    fail(`bad bits after slash: ${goQuote(bitsText)}`);
  }
  const bits = Number(bitsText);
  if (bits > addr.bytes.length * 8) fail('prefix length out of range');
  return { bytes: addr.bytes, bits };
}

/**
 * cidr(string): netip prefix parsing, then no IPv4-mapped IPv6 address. Throws CIDRError with
 * upstream's message, whose prefix is doubled for netip errors as upstream's is.
 */
export function parseCIDR(raw: string): CIDR {
  let p: { bytes: Uint8Array; bits: number };
  try {
    p = parsePrefix(raw);
  } catch (e) {
    if (!(e instanceof CIDRError)) throw e;
    throw new CIDRError(CONVERSION + CONVERSION + e.message);
  }
  if (isIPv4Mapped(p.bytes))
    throw new CIDRError(`${CONVERSION}IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  return new CIDR(new IPAddr(p.bytes), p.bits);
}

/** isCIDR(string): true exactly when cidr() would not fail. */
export function isCIDR(raw: string): boolean {
  try {
    parseCIDR(raw);
    return true;
  } catch (e) {
    if (e instanceof CIDRError) return false;
    throw e;
  }
}

function maskedBytes(bytes: Uint8Array, bits: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  for (let i = 0; i < out.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    out[i] &= (0xff00 >> keep) & 0xff;
  }
  return out;
}

function samePrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  if (a.length !== b.length) return false;
  const x = maskedBytes(a, bits);
  const y = maskedBytes(b, bits);
  return x.every((v, i) => v === y[i]);
}

/** containsIP: same family and the first prefixLength bits agree. */
export function cidrContainsIP(c: CIDR, ip: IPAddr): boolean {
  return samePrefix(c.ip.bytes, ip.bytes, c.prefixLength);
}

/**
 * containsIP(string). Upstream parses the string like ip() but then reports a string that does
 * not parse as `no such overload` rather than the parse error (its binding rejects the error
 * value as an argument), so that is the message thrown here.
 */
export function cidrContainsIPString(c: CIDR, ip: string): boolean {
  let addr: IPAddr;
  try {
    addr = parseIP(ip);
  } catch (e) {
    if (e instanceof IPError) throw new CIDRError('no such overload');
    throw e;
  }
  return cidrContainsIP(c, addr);
}

/** containsCIDR: the other network overlaps this one and is no wider. */
export function cidrContainsCIDR(c: CIDR, other: CIDR): boolean {
  return other.prefixLength >= c.prefixLength && samePrefix(c.ip.bytes, other.ip.bytes, c.prefixLength);
}

/** containsCIDR(string): parses like cidr() (and fails like it) first. */
export function cidrContainsCIDRString(c: CIDR, other: string): boolean {
  return cidrContainsCIDR(c, parseCIDR(other));
}

/** ip(): the address as written. */
export function cidrIP(c: CIDR): IPAddr {
  return c.ip;
}

/** masked(): the network address with the same prefix length. */
export function cidrMasked(c: CIDR): CIDR {
  return new CIDR(new IPAddr(maskedBytes(c.ip.bytes, c.prefixLength)), c.prefixLength);
}

export function cidrPrefixLength(c: CIDR): number {
  return c.prefixLength;
}

export function cidrToString(c: CIDR): string {
  return c.toString();
}

export function cidrEquals(a: CIDR, b: CIDR): boolean {
  return a.equals(b);
}

/** The size upstream's cost model uses: ceil(prefix length / 8). */
export function cidrSize(c: CIDR): number {
  return Math.ceil(c.prefixLength / 8);
}
