// The controllers' work queue, as client-go's util/workqueue: de-duplicating (an item waits once,
// and is never processed by two workers at once), delaying, rate-limited with upstream's limiters,
// and the worker loop that ties it to a handler, with upstream's metrics hooks (metrics.ts). Also
// the client's wall clock. Imports api.ts and node's async_hooks only.

export * from './clock.ts';
export * from './delaying-queue.ts';
export * from './metrics.ts';
export * from './queue.ts';
export * from './rate-limiters.ts';
export * from './rate-limiting-queue.ts';
export * from './run-workers.ts';
