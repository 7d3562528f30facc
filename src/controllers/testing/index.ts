// Test support for the controllers built on the client: an in-process API server with the real
// client, informers and a controller context. Imported by tests only.

export * from './harness.ts';
