// Audit: the policy that decides, per request, the level at which it is recorded and which stages
// are left out (policy-types.ts, the file's decoding and validation in policy-file.ts, the rule
// evaluation in policy-checker.ts), the Event every stage produces and the backend interface
// (event-types.ts), the server's audit options with upstream's defaults and checks (options.ts,
// defaults.ts, options-validation.ts), the pipeline a server runs (pipeline.ts: policy, backend,
// counters) and each request's record with the hooks handlers call (request-audit.ts). The
// filters are in ../filters/audit.ts; the backends in backends/.

export * from './defaults.ts';
export * from './event-types.ts';
export * from './options.ts';
export * from './options-validation.ts';
export * from './pipeline.ts';
export * from './policy-checker.ts';
export * from './policy-file.ts';
export * from './policy-types.ts';
export * from './request-audit.ts';
