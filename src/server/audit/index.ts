// Audit: the policy that decides, per request, the level at which it is recorded and which stages
// are left out (policy-types.ts, the file's decoding and validation in policy-file.ts, the rule
// evaluation in policy-checker.ts). This is a pure module for now; the request filter, the event
// building and the log and webhook backends that wire it into the request path come later.

export * from './policy-checker.ts';
export * from './policy-file.ts';
export * from './policy-types.ts';
