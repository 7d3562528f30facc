// The watch cache: a Storage decorator serving watches, "not older than" reads and consistent
// unpaged lists from memory, kept current by one watch of the backend. Imports storage/ only.

export * from './cached-storage.ts';
