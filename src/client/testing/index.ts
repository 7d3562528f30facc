// Test support for code built on the client: a fake clock and an in-memory resource client with
// resourceVersions, paging, watches and injected failures (410 Expired, refused calls). Imported
// by tests only.

export * from './fake-clock.ts';
