// What a leader elector needs and the rules it is held to, as client-go's NewLeaderElector and
// resource lock factory check them: the three durations in order (leaseDuration > renewDeadline >
// retryPeriod × 1.2, all positive), the `leases` lock only (older lock types are named and refused
// with upstream's messages), a non-empty identity, and both mandatory callbacks. Also the identity
// kube-controller-manager uses: the host name, an underscore and a fresh UUID.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** The jitter factor of the acquire loop, and the margin renewDeadline must leave over retryPeriod. */
export const JITTER_FACTOR = 1.2;

/** LeaderElectionConfiguration's defaults (component-base). */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;
export const LEASES_RESOURCE_LOCK = 'leases';

export interface LeaderCallbacks {
  /** Called once the lease is acquired; `signal` aborts when leadership ends. Not awaited. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called when run() returns, whether or not it ever led (as upstream's deferred call). */
  onStoppedLeading(): void;
  /** Called when the observed holder changes (including to this elector). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionTimings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's checks of an elector's configuration; throws with its message. */
export function validateLeaderElection(
  t: LeaderElectionTimings,
  identity: string,
  callbacks: Partial<LeaderCallbacks>,
): void {
  if (t.leaseDurationMs <= t.renewDeadlineMs)
    throw new Error('leaseDuration must be greater than renewDeadline');
  if (t.renewDeadlineMs <= JITTER_FACTOR * t.retryPeriodMs)
    throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
  if (t.leaseDurationMs < 1) throw new Error('leaseDuration must be greater than zero');
  if (t.renewDeadlineMs < 1) throw new Error('renewDeadline must be greater than zero');
  if (t.retryPeriodMs < 1) throw new Error('retryPeriod must be greater than zero');
  if (typeof callbacks.onStartedLeading !== 'function')
    throw new Error('OnStartedLeading callback must not be nil');
  if (typeof callbacks.onStoppedLeading !== 'function')
    throw new Error('OnStoppedLeading callback must not be nil');
  if (identity === '') throw new Error('Lock identity is empty');
}

/** Refuses every resource lock type but `leases`, with upstream's messages for the removed ones. */
export function checkResourceLock(lockType: string): void {
  switch (lockType) {
    case LEASES_RESOURCE_LOCK:
      return;
    case 'endpoints':
      throw new Error('endpoints lock is removed, migrate to leases');
    case 'configmaps':
      throw new Error('configmaps lock is removed, migrate to leases');
    case 'endpointsleases':
      throw new Error('endpointsleases lock is removed, migrate to leases');
    case 'configmapsleases':
      throw new Error('configmapsleases lock is removed, migrated to leases');
    default:
      throw new Error(`Invalid lock-type ${lockType}`);
  }
}

/** `<hostname>_<uuid>`, unique per process start, as kube-controller-manager's identity. */
export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}
