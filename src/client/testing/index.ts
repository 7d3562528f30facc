// Test support for code built on the client: a fake clock, and an in-memory cluster whose
// resource clients keep resourceVersions, page lists, replay watches from a revision, serve
// streaming lists, and let a test compact history (410 Expired), expire or close watches, refuse
// streaming lists and fail or delay chosen calls. Imported by tests only.

export * from './fake-clock.ts';
export * from './fake-cluster.ts';
export * from './fake-patch.ts';
export * from './fake-resource-client.ts';
export * from './fake-store.ts';
export * from './fake-watch.ts';
