// The pod template shared by workload kinds (Deployment, ReplicaSet): its schema definitions,
// defaults and validation. Imports machinery/ and schema/ only.

export * from './defaults.ts';
export * from './schema.ts';
export * from './validation.ts';
