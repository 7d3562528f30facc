// The coordination group: Lease.

export * from './lease.ts';
