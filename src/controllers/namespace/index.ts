// The namespace deleter: empties a terminating namespace and then releases its finalizer.

export * from './namespace-deleter.ts';
