// Leader election on Leases, as client-go's tools/leaderelection: the elector (acquire, renew,
// release on cancel, callbacks), the Lease lock with MicroTime times, the configuration rules and
// defaults of LeaderElectionConfiguration, and the metrics interface the elector reports to.
// Imports api.ts, work-queue/clock.ts, machinery/ and naming/.

export * from './config.ts';
export * from './elector.ts';
export * from './lease-lock.ts';
export * from './metrics.ts';
