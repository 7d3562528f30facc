// The first of upstream's two passes: is the input one well-formed data item within the limits?
// Upstream runs it over the whole body before building any value, so its errors (truncation,
// reserved bits, NaN, bignum tags, depth, trailing bytes) win over the decode pass's errors
// wherever they occur. The scan is iterative: a body nested 10,000 deep must not overflow our stack.

import * as errorsModule from './errors.ts';
import * as float16Module from './float16.ts';
import * as headModule from './head.ts';

// Bound once: under the test loader, imported bindings are getters, and these are read per byte.
const { CborDecodeError, syntaxError, TYPE_NAMES, unacceptable, unexpectedEOF } = errorsModule;
const { halfToNumber } = float16Module;
const {
  AI_1BYTE,
  AI_2BYTE,
  AI_4BYTE,
  AI_8BYTE,
  AI_INDEFINITE,
  BREAK,
  MAJOR_ARRAY,
  MAJOR_BYTES,
  MAJOR_MAP,
  MAJOR_NINT,
  MAJOR_SIMPLE,
  MAJOR_TAG,
  MAJOR_TEXT,
  MAJOR_UINT,
  MAX_INT64,
  TAG_NEGATIVE_BIGNUM,
  TAG_UNSIGNED_BIGNUM,
} = headModule;

/** Upstream's decode limits (apimachinery's CBOR decode mode). */
export const MAX_NESTED_LEVELS = 10000;
export const MAX_ARRAY_ELEMENTS = 2147483647;
export const MAX_MAP_PAIRS = 2097152;

interface Frame {
  major: number;
  /** Items left in a definite container (maps count keys and values); -1 when indefinite. */
  remaining: number;
  /** Items seen in an indefinite container. */
  count: number;
  /** Depth handed to the items inside. */
  depth: number;
}

class Scanner {
  readonly view: DataView;
  pos: number;
  constructor(
    readonly data: Uint8Array,
    start: number,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.pos = start;
  }

  /** Reads and checks one head; returns its argument (exact as bigint when it took 8 bytes). */
  head(): { major: number; ai: number; arg: number; big: bigint | undefined } {
    const { data, view } = this;
    if (this.pos >= data.length) throw unexpectedEOF();
    const b = data[this.pos++];
    const major = b >> 5;
    const ai = b & 0x1f;
    const left = data.length - this.pos;
    if (ai < AI_1BYTE) return { major, ai, arg: ai, big: undefined };
    if (ai === AI_1BYTE) {
      if (left < 1) throw unexpectedEOF();
      const arg = data[this.pos++];
      if (major === MAJOR_SIMPLE && arg < 32) {
        throw syntaxError(`invalid simple value ${arg} for type ${TYPE_NAMES[major]}`);
      }
      return { major, ai, arg, big: undefined };
    }
    if (ai === AI_2BYTE) {
      if (left < 2) throw unexpectedEOF();
      const arg = view.getUint16(this.pos);
      this.pos += 2;
      if (major === MAJOR_SIMPLE) acceptableFloat(halfToNumber(arg));
      return { major, ai, arg, big: undefined };
    }
    if (ai === AI_4BYTE) {
      if (left < 4) throw unexpectedEOF();
      const arg = view.getUint32(this.pos);
      if (major === MAJOR_SIMPLE) acceptableFloat(view.getFloat32(this.pos));
      this.pos += 4;
      return { major, ai, arg, big: undefined };
    }
    if (ai === AI_8BYTE) {
      if (left < 8) throw unexpectedEOF();
      const big = view.getBigUint64(this.pos);
      if (major === MAJOR_SIMPLE) acceptableFloat(view.getFloat64(this.pos));
      this.pos += 8;
      return { major, ai, arg: Number(big), big };
    }
    if (ai === AI_INDEFINITE) {
      if (major === MAJOR_UINT || major === MAJOR_NINT || major === MAJOR_TAG) {
        throw syntaxError(`invalid additional information ${ai} for type ${TYPE_NAMES[major]}`);
      }
      if (major === MAJOR_SIMPLE) throw syntaxError('unexpected "break" code');
      return { major, ai, arg: 0, big: undefined };
    }
    throw syntaxError(`invalid additional information ${ai} for type ${TYPE_NAMES[major]}`);
  }
}

function acceptableFloat(f: number): void {
  if (Number.isNaN(f)) throw unacceptable(MAJOR_SIMPLE, 'floating-point NaN', 'wellformed');
  if (!Number.isFinite(f)) throw unacceptable(MAJOR_SIMPLE, 'floating-point infinity', 'wellformed');
}

const limitError = (text: string) => new CborDecodeError(`cbor: ${text}`, 'limit', 'wellformed');
const nestedError = () => limitError(`exceeded max nested level ${MAX_NESTED_LEVELS}`);

/**
 * Checks the data item at `start` and returns the offset just past it. Without `allowExtra`, bytes
 * after the item are an error, as in upstream's Unmarshal; a sequence reader passes true.
 */
export function scanWellFormed(data: Uint8Array, start = 0, allowExtra = false): number {
  if (start >= data.length) throw new CborDecodeError('EOF', 'empty', 'wellformed');
  const s = new Scanner(data, start);
  const stack: Frame[] = [];
  let depth = 0;
  for (;;) {
    const top = stack[stack.length - 1];
    let finished = false;
    if (top !== undefined && top.remaining < 0) {
      if (s.pos >= data.length) throw unexpectedEOF();
      if (data[s.pos] === BREAK) {
        s.pos++;
        if (top.major === MAJOR_MAP && top.count % 2 === 1) throw syntaxError('unexpected "break" code');
        stack.pop();
        finished = true;
      } else if (top.major === MAJOR_BYTES || top.major === MAJOR_TEXT) {
        const next = data[s.pos];
        if (next >> 5 !== top.major) {
          throw syntaxError(
            `wrong element type ${TYPE_NAMES[next >> 5]} for indefinite-length ${TYPE_NAMES[top.major]}`,
          );
        }
        if ((next & 0x1f) === AI_INDEFINITE) {
          throw syntaxError(`indefinite-length ${TYPE_NAMES[top.major]} chunk is not definite-length`);
        }
      }
    }
    if (!finished) finished = scanOne(s, stack, depth);
    if (!finished) {
      depth = stack[stack.length - 1].depth;
      continue;
    }
    // An item ended: count it in its container, closing definite containers that are now full.
    for (;;) {
      const parent = stack[stack.length - 1];
      if (parent === undefined) break;
      if (parent.remaining >= 0) {
        parent.remaining--;
        if (parent.remaining > 0) break;
        stack.pop();
        continue;
      }
      parent.count++;
      if (parent.major === MAJOR_ARRAY && parent.count > MAX_ARRAY_ELEMENTS) {
        throw limitError(`exceeded max number of elements ${MAX_ARRAY_ELEMENTS} for CBOR array`);
      }
      if (parent.major === MAJOR_MAP && parent.count % 2 === 0 && parent.count / 2 > MAX_MAP_PAIRS) {
        throw limitError(`exceeded max number of key-value pairs ${MAX_MAP_PAIRS} for CBOR map`);
      }
      break;
    }
    if (stack.length === 0) break;
    depth = stack[stack.length - 1].depth;
  }
  if (!allowExtra && s.pos !== data.length) {
    throw new CborDecodeError(
      `cbor: ${data.length - s.pos} bytes of extraneous data starting at index ${s.pos}`,
      'extraneous',
      'wellformed',
    );
  }
  return s.pos;
}

/**
 * Scans the head of one item (and a string's bytes). Returns true when the item is complete,
 * false when it opened a container whose contents come next (the frame is then on the stack).
 */
function scanOne(s: Scanner, stack: Frame[], depthIn: number): boolean {
  let depth = depthIn;
  let h = s.head();
  // A chain of tags: each tag after the first counts as a level of nesting.
  while (h.major === MAJOR_TAG) {
    for (;;) {
      if (s.pos >= s.data.length) throw unexpectedEOF();
      if (h.arg === TAG_UNSIGNED_BIGNUM || h.arg === TAG_NEGATIVE_BIGNUM) {
        throw unacceptable(MAJOR_TAG, 'bignum', 'wellformed');
      }
      if (s.data[s.pos] >> 5 !== MAJOR_TAG) break;
      h = s.head();
      if (++depth > MAX_NESTED_LEVELS) throw nestedError();
    }
    h = s.head();
  }
  const { major, ai } = h;
  if (major === MAJOR_BYTES || major === MAJOR_TEXT) {
    if (ai === AI_INDEFINITE) {
      stack.push({ major, remaining: -1, count: 0, depth });
      return false;
    }
    if (h.big !== undefined && h.big > MAX_INT64) {
      throw limitError(`${TYPE_NAMES[major]} length ${h.big} is too large, causing integer overflow`);
    }
    if (s.data.length - s.pos < h.arg) throw unexpectedEOF();
    s.pos += h.arg;
    return true;
  }
  if (major === MAJOR_ARRAY || major === MAJOR_MAP) {
    if (++depth > MAX_NESTED_LEVELS) throw nestedError();
    if (ai === AI_INDEFINITE) {
      stack.push({ major, remaining: -1, count: 0, depth });
      return false;
    }
    if (h.big !== undefined && h.big > MAX_INT64) {
      throw limitError(`${TYPE_NAMES[major]} length ${h.big} is too large, it would cause integer overflow`);
    }
    if (major === MAJOR_ARRAY && h.arg > MAX_ARRAY_ELEMENTS) {
      throw limitError(`exceeded max number of elements ${MAX_ARRAY_ELEMENTS} for CBOR array`);
    }
    if (major === MAJOR_MAP && h.arg > MAX_MAP_PAIRS) {
      throw limitError(`exceeded max number of key-value pairs ${MAX_MAP_PAIRS} for CBOR map`);
    }
    if (h.arg === 0) return true;
    stack.push({ major, remaining: major === MAJOR_MAP ? h.arg * 2 : h.arg, count: 0, depth });
    return false;
  }
  return true;
}
