// Test support for in-process servers: a started server on a fresh data directory and an HTTPS
// client that speaks as its admin, and waiting for conditions. Imported by tests only.

export * from './http-client.ts';
export * from './wait-for.ts';
