// CBOR (RFC 8949) for request and response bodies and cbor-seq (RFC 8742) for watch streams,
// byte-compatible with upstream's CBOR serializer: what it writes for unstructured content, we write;
// what it refuses, we refuse with its message. Our own small encoder and decoder rather than a
// general library: upstream's choices (strings as byte strings, bytewise key order, its tag and
// simple-value rules, its error texts, duplicate-key reporting) are most of the work either way.
// May import ../ (codec) types and machinery/; nothing here knows about HTTP or feature gates.

export { type CborDecoded, type CborDecodeOptions, decodeCbor } from './decode.ts';
export { encodeCbor, encodeCborItem } from './encode.ts';
export { CborDecodeError, CborEncodeError, type CborErrorKind } from './errors.ts';
export { SELF_DESCRIBED_PREFIX } from './head.ts';
export {
  CborSequenceReader,
  encodeCborSeqItem,
  encodeCborWatchEvent,
  encodeCborWatchEventFromBody,
  splitCborSequence,
} from './sequence.ts';
export { MAX_ARRAY_ELEMENTS, MAX_MAP_PAIRS, MAX_NESTED_LEVELS } from './wellformed.ts';

export const CBOR_MEDIA_TYPE = 'application/cbor';
export const CBOR_SEQ_MEDIA_TYPE = 'application/cbor-seq';
export const APPLY_PATCH_CBOR_MEDIA_TYPE = 'application/apply-patch+cbor';

/** Whether a body starts with the self-described tag, upstream's test for "this is CBOR". */
export function recognizesCbor(body: Uint8Array): boolean {
  return body.length >= 3 && body[0] === 0xd9 && body[1] === 0xd9 && body[2] === 0xf7;
}
