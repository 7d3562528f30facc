// IP address parsing and printing with the rules and error strings of Go's net/netip, which is what
// upstream's CEL ip() and cidr() are defined by: dotted decimal without leading zeros, RFC 4291
// IPv6 text with an optional embedded IPv4 tail and zone, and RFC 5952 output.

import { goQuote } from '../../machinery/field-errors.ts';

/** A parsed address: 4 or 16 bytes, plus the IPv6 zone when one was written. */
export interface ParsedAddr {
  readonly bytes: Uint8Array;
  readonly zone: string;
}

/** A parse failure; the message is Go's `ParseAddr("...")...` text. */
export class AddrParseError extends Error {
  override name = 'AddrParseError';
}

function fail(input: string, msg: string, at = ''): never {
  const where = at === '' ? '' : ` (at ${goQuote(at)})`;
  throw new AddrParseError(`ParseAddr(${goQuote(input)}): ${msg}${where}`);
}

/** Go's netip.ParseAddr: dispatches on the first `.`, `:` or `%`. */
export function parseAddr(s: string): ParsedAddr {
  for (const c of s) {
    if (c === '.') return { bytes: parseIPv4(s, 0, s.length), zone: '' };
    if (c === ':') return parseIPv6(s);
    if (c === '%') fail(s, 'missing IPv6 address');
  }
  fail(s, 'unable to parse IP');
}

// Reads input[start:end] as four decimal octets; errors quote the whole input.
function parseIPv4(input: string, start: number, end: number): Uint8Array {
  const s = input.slice(start, end);
  const out = new Uint8Array(4);
  let field = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c >= '0' && c <= '9') {
      if (digits === 1 && value === 0) fail(input, 'IPv4 field has octet with leading zero');
      value = value * 10 + (c.charCodeAt(0) - 48);
      digits++;
      if (value > 255) fail(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') {
        fail(input, 'IPv4 field must have at least one digit', s.slice(i));
      }
      if (field === 3) fail(input, 'IPv4 address too long');
      out[field++] = value;
      value = 0;
      digits = 0;
    } else {
      fail(input, 'unexpected character', s.slice(i));
    }
  }
  if (field < 3) fail(input, 'IPv4 address too short');
  out[3] = value;
  return out;
}

function hexValue(c: string | undefined): number {
  if (c === undefined) return -1;
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

function parseIPv6(input: string): ParsedAddr {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct !== -1) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') fail(input, 'zone must be a non-empty string');
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1; // byte offset where `::` stands
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return { bytes: ip, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexValue(s[off]);
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) fail(input, 'each group must have 4 or less digits', s);
    }
    if (off === 0) fail(input, 'each colon-separated field must have at least one digit', s);
    if (s[off] === '.') {
      if (ellipsis < 0 && i !== 12) {
        fail(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      }
      if (i + 4 > 16) fail(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const end = input.length - (zone === '' ? 0 : zone.length + 1);
      ip.set(parseIPv4(input, end - s.length, end), i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') fail(input, 'unexpected character, want colon', s);
    if (s.length === 1) fail(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) fail(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') fail(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) fail(input, 'address string too short');
    const n = 16 - i;
    ip.copyWithin(ellipsis + n, ellipsis, i);
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    fail(input, 'the :: must expand to at least one field of zeros');
  }
  return { bytes: ip, zone };
}

/** Whether 16 bytes hold an IPv4-mapped IPv6 address (::ffff:0:0/96). */
export function isIPv4Mapped(bytes: Uint8Array): boolean {
  if (bytes.length !== 16) return false;
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

function groups(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < 16; i += 2) out.push((bytes[i] << 8) | bytes[i + 1]);
  return out;
}

/** Go's Addr.String: dotted decimal, `::ffff:a.b.c.d`, or RFC 5952 (longest zero run of 2+, first wins). */
export function formatAddr(bytes: Uint8Array, zone = ''): string {
  if (bytes.length === 4) return bytes.join('.');
  const z = zone === '' ? '' : `%${zone}`;
  if (isIPv4Mapped(bytes)) return `::ffff:${bytes.subarray(12).join('.')}${z}`;
  const g = groups(bytes);
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      out += '::';
      i += bestLen - 1;
      continue;
    }
    if (i > 0 && !out.endsWith(':')) out += ':';
    out += g[i].toString(16);
  }
  return out + z;
}
