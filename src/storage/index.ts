// Storage: the contract every backend fulfils (interface.ts), its typed errors, and helpers shared
// by backends (continue tokens, preconditions, value codec, watch queue, the count of awaited
// work). Backends live in sqlite/ and etcd/; testing/ holds the conformance suite they all pass.
// May import machinery/ only.

export { storageWorkAwaited, storageWorkBegins } from './awaited.ts';
export * from './encoded.ts';
export * from './errors.ts';
export * from './interface.ts';
