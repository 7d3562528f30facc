// The head of a CBOR data item (RFC 8949 section 3): major type in the top three bits, additional
// information in the low five, then a 0, 1, 2, 4 or 8 byte argument.

export const MAJOR_UINT = 0;
export const MAJOR_NINT = 1;
export const MAJOR_BYTES = 2;
export const MAJOR_TEXT = 3;
export const MAJOR_ARRAY = 4;
export const MAJOR_MAP = 5;
export const MAJOR_TAG = 6;
export const MAJOR_SIMPLE = 7;

export const AI_1BYTE = 24;
export const AI_2BYTE = 25;
export const AI_4BYTE = 26;
export const AI_8BYTE = 27;
export const AI_INDEFINITE = 31;
export const BREAK = 0xff;

export const SIMPLE_FALSE = 20;
export const SIMPLE_TRUE = 21;
export const SIMPLE_NULL = 22;
export const SIMPLE_UNDEFINED = 23;

export const TAG_RFC3339_TIME = 0;
export const TAG_EPOCH_TIME = 1;
export const TAG_UNSIGNED_BIGNUM = 2;
export const TAG_NEGATIVE_BIGNUM = 3;
export const TAG_BASE64URL_LATER = 21;
export const TAG_BASE64_LATER = 22;
export const TAG_BASE16_LATER = 23;
export const TAG_SELF_DESCRIBED = 55799;

/** The self-described CBOR tag's head, which upstream writes before every body it encodes. */
export const SELF_DESCRIBED_PREFIX: Uint8Array = Uint8Array.of(0xd9, 0xd9, 0xf7);

export const MAX_INT64 = 0x7fffffffffffffffn;

/** A head as read from bytes already known to hold it whole. */
export interface Head {
  major: number;
  ai: number;
  /** The argument; above 2^53 it is rounded, so exact comparisons use `big`. */
  arg: number;
  /** The exact argument when it came in 8 bytes, else undefined. */
  big: bigint | undefined;
  /** Offset just past the head. */
  end: number;
}

/**
 * Reads the head at `pos` without checking bounds or reserved values: the decode pass only runs
 * over input the well-formedness scan accepted.
 */
export function readHead(data: Uint8Array, view: DataView, pos: number): Head {
  const b = data[pos];
  const major = b >> 5;
  const ai = b & 0x1f;
  if (ai < AI_1BYTE || ai === AI_INDEFINITE) return { major, ai, arg: ai, big: undefined, end: pos + 1 };
  if (ai === AI_1BYTE) return { major, ai, arg: data[pos + 1], big: undefined, end: pos + 2 };
  if (ai === AI_2BYTE) return { major, ai, arg: view.getUint16(pos + 1), big: undefined, end: pos + 3 };
  if (ai === AI_4BYTE) return { major, ai, arg: view.getUint32(pos + 1), big: undefined, end: pos + 5 };
  const big = view.getBigUint64(pos + 1);
  return { major, ai, arg: Number(big), big, end: pos + 9 };
}

/** The exact argument of a head. */
export const exactArg = (h: Head): bigint => h.big ?? BigInt(h.arg);
