// The garbage collector: deletes objects whose owners are gone, and carries out Orphan and
// Foreground deletion of owners. Fed by watches of every served resource.

export * from './garbage-collector.ts';
