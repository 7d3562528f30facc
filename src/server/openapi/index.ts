// OpenAPI documents generated from the kinds' schemas: Swagger 2.0 at /openapi/v2, and OpenAPI 3.0
// per group-version at /openapi/v3 with its hashed index. Imports naming/, registry/ and schema/.

export * from './documents.ts';
