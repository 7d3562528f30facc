// Audit: the policy that decides, per request, the level at which it is recorded and which stages
// are left out (policy-types.ts, the file's decoding and validation in policy-file.ts, the rule
// evaluation in policy-checker.ts), the Event every stage produces and the backend interface
// (event-types.ts), and the server's audit options (options.ts).

export * from './event-types.ts';
export * from './options.ts';
export * from './policy-checker.ts';
export * from './policy-file.ts';
export * from './policy-types.ts';
