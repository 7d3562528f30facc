// Codecs: media types, Accept and Content-Type negotiation, and the JSON and YAML serializers;
// Table conversion; protobuf and CBOR arrive later. Large YAML bodies decode on a worker thread
// (yaml-offload.ts starts it, yaml-worker.ts is its entry point). May import machinery/ and naming/.

export * from './media-type.ts';
export * from './negotiation.ts';
export * from './serializers.ts';
export * from './table.ts';
export * from './yaml-offload.ts';
