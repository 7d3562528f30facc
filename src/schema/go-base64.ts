// Base64 as upstream's JSON decoder reads `[]byte` fields (binaryData, a Secret's data): the padded
// standard alphabet, with CR and LF skipped anywhere. A bad value is a decode error whose text names
// the first offending byte offset, so this walks the input the same way to find the same offset.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int16Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

const CR = 13;
const LF = 10;
const PAD = 61; // '='

/** `illegal base64 data at input byte N`, as Go's CorruptInputError prints. */
export function base64Error(offset: number): string {
  return `illegal base64 data at input byte ${offset}`;
}

/**
 * The byte offset Go's decoder would report for `text`, or -1 when it decodes. Offsets count UTF-8
 * bytes, as the decoder sees the string.
 */
export function goBase64ErrorOffset(text: string): number {
  // ASCII is the common case; only a non-ASCII string needs its UTF-8 bytes.
  const src = Buffer.byteLength(text, 'utf8') === text.length ? null : Buffer.from(text, 'utf8');
  const len = src === null ? text.length : src.length;
  const at = (i: number) => (src === null ? text.charCodeAt(i) : src[i]);
  let si = 0;
  while (si < len) {
    // One quantum of four symbols.
    let j = 0;
    for (; j < 4; j++) {
      if (si === len) {
        if (j === 0) return -1;
        return si - j;
      }
      const c = at(si);
      si++;
      if (VALUE[c] >= 0) continue;
      if (c === LF || c === CR) {
        j--;
        continue;
      }
      if (c !== PAD) return si - 1;
      // Padding: only after two or three symbols, and "==" after two.
      if (j < 2) return si - 1;
      if (j === 2) {
        while (si < len && (at(si) === LF || at(si) === CR)) si++;
        if (si === len) return len;
        if (at(si) !== PAD) return si - 1;
        si++;
      }
      while (si < len && (at(si) === LF || at(si) === CR)) si++;
      return si < len ? si : -1;
    }
  }
  return -1;
}
