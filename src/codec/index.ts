// Codecs: media type parsing and negotiation now; JSON with duplicate-key detection, YAML,
// protobuf, CBOR and Table as they arrive. May import machinery/ and naming/.

export * from './media-type.ts';
