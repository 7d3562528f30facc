// The namespace controller: empties a terminating namespace and then releases its finalizer. The
// in-server copy (in-server-namespace-deleter.ts) runs inside the API server until it moves to the
// controller manager.

export * from './in-server-namespace-deleter.ts';
