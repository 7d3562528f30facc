// Informers, as client-go's tools/cache: the reflector (streaming or paged list, then watch, relist
// on 410), the indexed cache behind listers, the shared informer that fans changes out to handlers
// with per-handler resync, and the factory that shares one informer per resource in a process.
// Imports api.ts, work-queue/clock.ts, machinery/ and naming/.

export * from './backoff.ts';
export * from './factory.ts';
export * from './indexer.ts';
export * from './keys.ts';
export * from './list-pager.ts';
export * from './listener.ts';
export * from './reflector.ts';
export * from './resync.ts';
export * from './shared-informer.ts';
