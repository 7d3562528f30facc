// Helpers shared by the workload controllers (ReplicaSet, Deployment): controller references and
// claiming by selector, expectations, Pod state predicates, slow-start batches and the ranking of
// Pods to delete. Imports client/ contracts, machinery/, naming/ and ../controller-support.ts only.

export * from './controller-ref.ts';
export * from './expectations.ts';
export * from './pod-ranking.ts';
export * from './pod-state.ts';
export * from './slow-start.ts';
