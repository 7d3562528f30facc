// Codecs: media types, Accept and Content-Type negotiation, and the JSON and YAML serializers;
// protobuf, CBOR and Table arrive later. May import machinery/ and naming/.

export * from './media-type.ts';
export * from './negotiation.ts';
export * from './serializers.ts';
