// The binary body encodings as Serializers: protobuf (built-in kinds only; it needs each kind's
// declared messages, so a serializer is made per server from the kinds it serves) and CBOR (any
// JSON-shaped value). Both read and write Buffers; their decode errors extend DecodeError.

import type { ApiObject } from '../machinery/object.ts';
import {
  CBOR_MEDIA_TYPE,
  CBOR_SEQ_MEDIA_TYPE,
  decodeCbor,
  encodeCbor,
  encodeCborWatchEventFromBody,
} from './cbor/index.ts';
import { MAX_NESTING_DEPTH, valueTooDeep } from './depth.ts';
import {
  decodeProtobuf,
  encodeMetaProtobuf,
  encodeProtobuf,
  encodeProtobufList,
  encodeStatus,
  encodeWatchFrame,
  META_KINDS,
  type MetaKind,
  ProtobufError,
  type SchemaLookup,
} from './protobuf/index.ts';
import { type BinarySerializer, DecodeError, type DuplicateKeys } from './serializers.ts';

/** Protobuf has no repeated keys: a repeated field is the message's own business (last wins). */
const noDuplicates = (): DuplicateKeys => ({ format: 'json', keys: [], ordinalsOf: () => new Map() });

const isMetaKind = (kind: string): kind is MetaKind => (META_KINDS as readonly string[]).includes(kind);

/** A protobuf decode failure, as the handlers report a body they cannot read. */
export class ProtobufDecodeError extends DecodeError {
  override name = 'ProtobufDecodeError';
}

/**
 * Protobuf in `mediaType` (the profile's, or upstream's name accepted as the same) for the kinds
 * `lookup` knows, their lists, and the meta/v1 messages (Status, DeleteOptions, PartialObjectMetadata).
 */
export function protobufSerializer(mediaType: string, lookup: SchemaLookup): BinarySerializer {
  return {
    binary: true,
    schemaless: false,
    mediaType,
    streamMediaType: `${mediaType};stream=watch`,
    encode(value) {
      const obj = value as ApiObject;
      const kind = String(obj.kind ?? '');
      const apiVersion = String(obj.apiVersion ?? '');
      if (kind === 'Status') return encodeStatus(obj);
      const schema = lookup(apiVersion, kind);
      if (schema !== undefined) return encodeProtobuf(schema, obj);
      if (kind.endsWith('List')) {
        const item = lookup(apiVersion, kind.slice(0, -4));
        if (item !== undefined) return encodeProtobufList(item, obj);
      }
      if (isMetaKind(kind)) return encodeMetaProtobuf(kind, obj, apiVersion);
      throw new ProtobufError(`object ${apiVersion}, Kind=${kind} has no protobuf message`);
    },
    decodeChecked(body) {
      let value: unknown;
      try {
        value = decodeProtobuf(lookup, body);
      } catch (err) {
        if (err instanceof ProtobufError) throw new ProtobufDecodeError(err.message);
        throw err;
      }
      // Embedded JSON (RawExtension, FieldsV1) can nest beyond what the walkers after us take.
      if (valueTooDeep(value) !== undefined) {
        throw new ProtobufDecodeError(`exceeded max depth of ${MAX_NESTING_DEPTH}`);
      }
      return { value, duplicates: noDuplicates() };
    },
    watchEvent: encodeWatchFrame,
  };
}

/** CBOR with the self-described tag (application/cbor); watch streams are cbor-seq. */
export const CBOR_SERIALIZER: BinarySerializer = {
  binary: true,
  schemaless: true,
  mediaType: CBOR_MEDIA_TYPE,
  streamMediaType: CBOR_SEQ_MEDIA_TYPE,
  encode: (value) => encodeCbor(value),
  decodeChecked(body) {
    // Repeated keys keep the last value and are reported, for the fieldValidation levels to judge.
    const { value, duplicates } = decodeCbor(body, { duplicateKeys: 'report', top: 'object' });
    // The codec stops at upstream's 10,000 levels; the walkers after it stop sooner (depth.ts).
    if (valueTooDeep(value) !== undefined) {
      throw new DecodeError(`cbor: exceeded max nested level ${MAX_NESTING_DEPTH}`);
    }
    return {
      value,
      duplicates: {
        format: 'json',
        keys: duplicates,
        ordinalsOf: (paths) => decodeCbor(body, { top: 'object', ordinalsOf: paths }).ordinals,
      },
    };
  },
  watchEvent: encodeCborWatchEventFromBody,
};
