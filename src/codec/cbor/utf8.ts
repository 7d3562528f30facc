// UTF-8 the way Go sees it. Text strings must be valid UTF-8 (upstream rejects them otherwise), but
// byte strings may hold any bytes: Go keeps them in a string as they are, and its JSON encoder
// writes one U+FFFD per invalid byte. We have no byte-preserving string, so we decode byte strings
// to what upstream's JSON view of them would be.

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes valid UTF-8, or returns undefined. */
export function decodeStrictUtf8(bytes: Uint8Array): string | undefined {
  // Most keys and values are short ASCII, where a TextDecoder call costs more than the loop.
  if (bytes.length <= 64) {
    let ascii = true;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none (Go's rules). */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Decodes any bytes, one U+FFFD per byte that starts no valid sequence (Go, not WHATWG, counting). */
export function decodeLenientUtf8(bytes: Uint8Array): string {
  const fast = decodeStrictUtf8(bytes);
  if (fast !== undefined) return fast;
  let out = '';
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += `${strict.decode(bytes.subarray(start, i))}\ufffd`;
    i++;
    start = i;
  }
  return out + strict.decode(bytes.subarray(start));
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** A string as Go's `%#v` (strconv.Quote) prints it: used in upstream's duplicate-key message. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (PRINTABLE.test(ch)) out += ch;
    else if (cp === 0x07) out += '\\a';
    else if (cp === 0x08) out += '\\b';
    else if (cp === 0x0c) out += '\\f';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0b) out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
