// Admission: the chain and its built-in plugins (one per file). Imports machinery/ and auth types.

export * from './chain.ts';
export * from './namespace-lifecycle.ts';
export type * from './types.ts';
