// Schemas: the vocabulary kinds are declared in, the shared metadata definitions, and the compiler
// that turns a declaration into a KindSchema (pruning, defaults, type and enum checks). Imports
// machinery/ and naming/ only.

export * from './compile.ts';
export * from './meta.ts';
export type * from './types.ts';
