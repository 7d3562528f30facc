// Controllers: loops that drive stored state toward what it declares. For now they run inside the
// API server over its registry (the garbage collector and the namespace deleter); they move to the
// controller manager, behind informers, later. Imports registry/ and machinery/ only.

export * from './clusterrole-aggregation/index.ts';
export * from './garbage-collector/index.ts';
export * from './namespace/index.ts';
export type { ControlledResource } from './resources.ts';
