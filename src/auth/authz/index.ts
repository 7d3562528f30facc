// Authorization: one authorizer per file and the chain in front of them (modes.ts builds it from
// --authorization-mode). Imports auth/authn types only.

export * from './always.ts';
export * from './modes.ts';
export * from './privileged-groups.ts';
export * from './public-info.ts';
export type * from './types.ts';
export * from './union.ts';
