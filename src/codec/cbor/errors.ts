// Errors of the CBOR codec, worded as upstream's CBOR library words them so that a client sees the
// same text in a 400 from us as from upstream. Decode errors extend the codecs' DecodeError so the
// handlers treat a bad CBOR body like a bad JSON body.

import { DecodeError } from '../serializers.ts';

/**
 * What went wrong, for callers that branch on it (tests, metrics). `stage` tells which pass found
 * it: upstream checks the whole input for well-formedness before it builds any value, so every
 * `wellformed` error wins over every `decode` error wherever they sit in the body.
 */
export type CborErrorKind =
  | 'empty' // no bytes at all (Go: io.EOF)
  | 'truncated' // the input ends inside a data item (Go: io.ErrUnexpectedEOF)
  | 'syntax' // reserved additional information, stray break, bad indefinite-length chunks
  | 'unacceptable' // well-formed but refused: NaN, infinity, bignums, unknown simple values
  | 'limit' // nesting depth, array or map size, a length that overflows
  | 'extraneous' // bytes after the one data item
  | 'utf8' // a text string that is not UTF-8
  | 'type' // a data item where the destination takes another type (e.g. an integer map key)
  | 'overflow' // an integer outside int64
  | 'duplicate-key' // a repeated map key (only when duplicates are rejected)
  | 'tag' // a tag whose content has the wrong type, or a bad date/time tag
  | 'unsupported'; // (encode) a value CBOR output may not hold

export class CborDecodeError extends DecodeError {
  override name = 'CborDecodeError';
  constructor(
    message: string,
    readonly kind: CborErrorKind,
    readonly stage: 'wellformed' | 'decode',
  ) {
    super(message);
  }
}

export class CborEncodeError extends Error {
  override name = 'CborEncodeError';
}

/** The CBOR type names upstream's messages use, by major type. */
export const TYPE_NAMES = [
  'positive integer',
  'negative integer',
  'byte string',
  'UTF-8 text string',
  'array',
  'map',
  'tag',
  'primitives',
] as const;

/** Go type names as Go's reflection prints them, for "cannot unmarshal X into Go value of type Y". */
export const GO_MAP = 'map[string]interface {}';
export const GO_STRING = 'string';
export const GO_INT64 = 'int64';
export const GO_TIME = 'time.Time';

export const unexpectedEOF = () => new CborDecodeError('unexpected EOF', 'truncated', 'wellformed');

export const syntaxError = (text: string) => new CborDecodeError(`cbor: ${text}`, 'syntax', 'wellformed');

export const unacceptable = (major: number, what: string, stage: 'wellformed' | 'decode') =>
  new CborDecodeError(
    `cbor: data item of cbor type ${TYPE_NAMES[major]} is not accepted by protocol: ${what}`,
    'unacceptable',
    stage,
  );

export const invalidUTF8 = () => new CborDecodeError('cbor: invalid UTF-8 string', 'utf8', 'decode');

export function unmarshalTypeError(major: number, goType: string, detail?: string): CborDecodeError {
  const base = `cbor: cannot unmarshal ${TYPE_NAMES[major]} into Go value of type ${goType}`;
  return new CborDecodeError(
    detail === undefined ? base : `${base} (${detail})`,
    detail === undefined ? 'type' : 'overflow',
    'decode',
  );
}
