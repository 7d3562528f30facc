// Registry: the generic store over Storage and the per-kind contracts it follows (resource
// descriptions, strategies), plus the mapping of storage failures to Status. Imports machinery/,
// schema/ and storage/.

export * from './generic-store.ts';
export * from './resource.ts';
export * from './storage-errors.ts';
export type * from './strategy.ts';
