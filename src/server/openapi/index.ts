// OpenAPI documents generated from the kinds' schemas: Swagger 2.0 at /openapi/v2 (JSON, and the
// gnostic protobuf kubectl asks for), and OpenAPI 3.0 per group-version at /openapi/v3 with its
// hashed index. Imports naming/, registry/, schema/, codec/protobuf's wire writer and yaml. This index
// is the generator the routes load with the first OpenAPI request; serve-v2.ts and v2-negotiation.ts
// are the light modules the routes import directly.

export * from './documents.ts';
export * from './v2-representations.ts';
