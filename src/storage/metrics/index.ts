// Storage and watch cache metrics under kube-apiserver 1.35's names: a Storage decorator for the
// backend's requests, lists and object counts (metered-storage.ts), the database size sources
// (size.ts), and the watch cache's hooks (cache-metrics.ts). Keys are mapped to their resource by
// resource-of.ts. May import storage/ shared helpers and machinery/ only.

export * from './cache-metrics.ts';
export * from './metered-storage.ts';
export * from './object-counts.ts';
export * from './resource-of.ts';
export * from './size.ts';
export * from './storage-metrics.ts';
