// The client library, used by controllers, the simulated node agents and tests: reading a
// platconfig (or the in-cluster configuration) into REST client options, credentials (static, token
// file, exec plugins in exec/), the HTTP/2 transport with the client-side rate limit, the REST client
// and its resource clients (JSON or protobuf), watch streams, discovery, and on top of them informers/,
// work-queue/ and leader election. Controllers depend on api.ts's contracts, so testing/'s fakes can
// stand in for a server. May import machinery/, naming/, codec/ and schema/ (protobuf bodies), apis/
// (lazily, for the built-in kinds' protobuf schemas) and server/version.ts (the User-Agent's version).

export * from './api.ts';
export * from './client-codec.ts';
export * from './client-config.ts';
export * from './config.ts';
export * from './credentials.ts';
export * from './discovery.ts';
export * from './events/index.ts';
export * from './exec/index.ts';
export * from './in-cluster.ts';
export * from './informers/index.ts';
export * from './leader-election/index.ts';
export * from './platconfig.ts';
export * from './platconfig-context.ts';
export * from './protobuf-schemas.ts';
export * from './rate-limiter.ts';
export * from './resource-client.ts';
export * from './rest-client.ts';
export * from './transport.ts';
export * from './watch-stream.ts';
export * from './work-queue/index.ts';
