// Protobuf bodies (application/vnd.platform.protobuf and its upstream alias): a schema-driven encoder
// and decoder between our JSON-shaped objects and upstream's messages, using the field numbers the
// schemas declare (`proto`, `protoPointer`, ...); the envelope (magic + runtime.Unknown); lists,
// meta/v1 Status, DeleteOptions, PartialObjectMetadata; watch events and their length-prefixed
// frames. Imports machinery/ and schema/ only; errors are ProtobufError.

export {
  decodeEnvelope,
  type Envelope,
  encodeEnvelope,
  hasProtobufMagic,
  PROTOBUF_MAGIC,
} from './envelope.ts';
export { ProtobufError } from './errors.ts';
export { META_KINDS, META_MESSAGES, type MetaKind } from './meta-messages.ts';
export {
  apiVersionOf,
  decodeMessage,
  decodeProtobuf,
  encodeListItemField,
  encodeListMetaField,
  encodeMessage,
  encodeMetaProtobuf,
  encodeProtobuf,
  encodeProtobufList,
  encodeProtobufListChunks,
  encodeStatus,
  type KindMessages,
  type SchemaLookup,
} from './objects.ts';
export {
  decodeWatchEvent,
  decodeWatchStream,
  encodeFrame,
  encodeWatchEvent,
  encodeWatchFrame,
  FrameReader,
  type RawWatchEvent,
} from './watch.ts';
